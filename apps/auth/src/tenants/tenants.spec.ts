import { ALL_PERMISSION_KEYS, DEFAULT_ROLES } from '@ddm/contracts';
import { toTenantView, toUserTenantView } from './dto/tenant.response';
import { defaultRoleMappings } from './tenant.rules';

const T = '0190a000-0000-7000-8000-0000000000aa';
const ROLE_IDS = ['r-admin', 'r-manager', 'r-user', 'r-auditor'];

describe('tenant rules', () => {
  it("a new tenant's default roles list every key, in role order then key order", () => {
    const mappings = defaultRoleMappings(ROLE_IDS);
    expect(DEFAULT_ROLES.map((r) => r.key)).toEqual(['SYSTEM_ADMIN', 'GLOBAL_AUTHORITY_MANAGER', 'GLOBAL_USER', 'AUDITOR']);
    expect(mappings).toHaveLength(DEFAULT_ROLES.length * ALL_PERMISSION_KEYS.length);
    expect(mappings.slice(0, ALL_PERMISSION_KEYS.length).map((m) => m.key)).toEqual(ALL_PERMISSION_KEYS);
    expect(mappings.map((m) => m.roleId)).toEqual(ROLE_IDS.flatMap((id) => ALL_PERMISSION_KEYS.map(() => id)));
  });

  it('a key is enabled exactly when the role grants it by default', () => {
    const enabled = (roleId: string) => defaultRoleMappings(ROLE_IDS).filter((m) => m.roleId === roleId && m.enabled).map((m) => m.key).sort();
    expect(enabled('r-admin')).toEqual([...ALL_PERMISSION_KEYS].sort());
    expect(enabled('r-user')).toEqual(['create:actions', 'view:decisions']);
    expect(enabled('r-auditor')).toEqual(['view:audit', 'view:decisions']);
    const auditor = defaultRoleMappings(ROLE_IDS).filter((m) => m.roleId === 'r-auditor');
    expect(auditor.find((m) => m.key === 'view:audit')?.enabled).toBe(true);
    expect(auditor.find((m) => m.key === 'manage:users')?.enabled).toBe(false);
  });

  it('the views of a tenant and of a tenant of the caller', () => {
    const row = { id: T, name: 'Acme', status: 'ACTIVE', created_on: '2026-01-01T00:00:00.000Z', updated_on: '2026-01-02T00:00:00.000Z' };
    expect(toTenantView(row)).toEqual({ id: T, name: 'Acme', status: 'ACTIVE', createdOn: '2026-01-01T00:00:00.000Z', updatedOn: '2026-01-02T00:00:00.000Z' });
    expect(toUserTenantView({ ...row, user_display_id: '10001', user_status: 'INVITED', is_active: false })).toEqual({
      ...toTenantView(row),
      userId: '10001',
      userStatus: 'INVITED',
      isActiveTenant: false,
    });
  });
});
