import { ALL_PERMISSION_KEYS, DEFAULT_ROLES, DefaultRoleKey, PERMISSION_KEYS, PermissionKey, isPermissionKey } from './permission-keys';

/** ARCHITECTURE §4, in its order. */
const ARCHITECTURE_KEYS = [
  'view:decisions',
  'create:decisions',
  'edit:decisions',
  'delete:decisions',
  'create:root_delegations',
  'create:delegations',
  'approve:delegations',
  'create:actions',
  'edit:actions',
  'create:documents',
  'edit:documents',
  'review:documents',
  'approve:documents',
  'create:matrices',
  'edit:matrices',
  'share:matrices',
  'change_owner:matrices',
  'manage:settings',
  'manage:users',
  'manage:roles',
  'create:notifications',
];
/** Added by the hardening issue (17): the audit trail's readers. */
const ADDED_KEYS = ['view:audit'];

const role = (key: DefaultRoleKey) => {
  const r = DEFAULT_ROLES.find((x) => x.key === key);
  if (!r) throw new Error(`no default role ${key}`);
  return r;
};

describe('permission key catalogue', () => {
  it('holds exactly the 21 keys of ARCHITECTURE §4 and view:audit', async () => {
    expect(ARCHITECTURE_KEYS).toHaveLength(21);
    expect([...ALL_PERMISSION_KEYS].sort()).toEqual([...ARCHITECTURE_KEYS, ...ADDED_KEYS].sort());
    expect(Object.keys(PERMISSION_KEYS)).toHaveLength(22);
  });

  it('spells every key <verb>:<resources> and describes it', async () => {
    for (const key of ALL_PERMISSION_KEYS) {
      expect(key).toMatch(/^[a-z_]+:[a-z_]+$/);
      expect(PERMISSION_KEYS[key].length).toBeGreaterThan(0);
    }
  });

  it('recognises catalogue keys only', async () => {
    expect(isPermissionKey('view:decisions')).toBe(true);
    expect(isPermissionKey('decision:delete')).toBe(false);
    expect(isPermissionKey('toString')).toBe(false);
    expect(isPermissionKey('')).toBe(false);
  });
});

describe('default roles', () => {
  it('are the four roles every tenant starts with, named as in ARCHITECTURE §4', async () => {
    expect(DEFAULT_ROLES.map((r) => r.roleName)).toEqual(['System Admin', 'Global Authority Manager', 'Global User', 'Auditor']);
    expect(new Set(DEFAULT_ROLES.map((r) => r.key)).size).toBe(4);
  });

  it('grant only catalogue keys, each once', async () => {
    for (const r of DEFAULT_ROLES) {
      for (const k of r.keys) expect(isPermissionKey(k)).toBe(true);
      expect(new Set(r.keys).size).toBe(r.keys.length);
    }
  });

  it('give System Admin every key, and it cannot be deactivated', async () => {
    const admin = role('SYSTEM_ADMIN');
    expect([...admin.keys].sort()).toEqual([...ARCHITECTURE_KEYS, ...ADDED_KEYS].sort());
    expect(admin.canDeactivate).toBe(false);
  });

  it('give Global Authority Manager no settings, users, roles or audit key', async () => {
    const gam = role('GLOBAL_AUTHORITY_MANAGER');
    for (const k of ['manage:settings', 'manage:users', 'manage:roles', 'view:audit'] as PermissionKey[]) expect(gam.keys).not.toContain(k);
    expect(gam.canDeactivate).toBe(true);
  });

  it('give Global Authority Manager every create/edit/delete/approve key on decisions, delegations, actions, documents and matrices', async () => {
    const gam = role('GLOBAL_AUTHORITY_MANAGER');
    const authority = ALL_PERMISSION_KEYS.filter((k) => {
      const [verb, resources] = k.split(':');
      return ['create', 'edit', 'delete', 'approve'].includes(verb) && /(decisions|delegations|actions|documents|matrices)$/.test(resources);
    });
    expect(authority).toEqual(
      expect.arrayContaining(['create:decisions', 'delete:decisions', 'create:root_delegations', 'approve:delegations', 'edit:actions', 'approve:documents', 'edit:matrices']),
    );
    for (const k of authority) expect(gam.keys).toContain(k);
  });

  it('give the Auditor only view keys, all of them', async () => {
    const auditor = role('AUDITOR');
    const viewKeys = ALL_PERMISSION_KEYS.filter((k) => k.startsWith('view:'));
    expect(auditor.keys.length).toBeGreaterThan(0);
    for (const k of auditor.keys) expect(k).toMatch(/^view:/);
    expect([...auditor.keys].sort()).toEqual(viewKeys.sort());
  });

  it('give the Global User view:decisions and create:actions', async () => {
    const user = role('GLOBAL_USER');
    expect([...user.keys].sort()).toEqual(['create:actions', 'view:decisions']);
  });
});
