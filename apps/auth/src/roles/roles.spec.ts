import { ALL_PERMISSION_KEYS } from '@ddm/contracts';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CreateRoleDto } from './dto/role-change.dto';
import { enabledBeyondCaller, fullMappings, roleChangeProblem } from './role.rules';

const systemAdmin = { roleName: 'System Admin', systemKey: 'SYSTEM_ADMIN', canDeactivate: false };
const custom = { roleName: 'Reviewers', systemKey: null, canDeactivate: true };

describe('tenant role rules', () => {
  it('System Admin cannot be deactivated', async () => {
    expect(roleChangeProblem(systemAdmin, { isDeactivated: true })).toBe('The role "System Admin" cannot be deactivated');
    expect(roleChangeProblem(systemAdmin, { isDeactivated: false })).toBeNull();
  });

  it('a role whose canDeactivate is false cannot be deactivated, whatever it is', async () => {
    expect(roleChangeProblem({ ...custom, canDeactivate: false }, { isDeactivated: true })).toMatch(/cannot be deactivated/);
    expect(roleChangeProblem(custom, { isDeactivated: true })).toBeNull();
  });

  it('System Admin cannot lose a key, but may be sent the keys it has', async () => {
    expect(roleChangeProblem(systemAdmin, { relationshipMappings: [{ relationshipKeyName: 'manage:users', isEnabled: false }] })).toBe(
      'System Admin keeps every permission; it cannot lose manage:users',
    );
    expect(roleChangeProblem(systemAdmin, { relationshipMappings: [{ relationshipKeyName: 'manage:users', isEnabled: true }] })).toBeNull();
  });

  it('other roles may lose keys', async () => {
    expect(roleChangeProblem(custom, { relationshipMappings: [{ relationshipKeyName: 'manage:users', isEnabled: false }] })).toBeNull();
    expect(roleChangeProblem({ ...custom, systemKey: 'GLOBAL_USER' }, { relationshipMappings: [{ relationshipKeyName: 'view:decisions', isEnabled: false }] })).toBeNull();
  });

  it('a new role maps every key of the catalogue, enabled only where asked', async () => {
    const mappings = fullMappings([{ relationshipKeyName: 'manage:users', isEnabled: true }, { relationshipKeyName: 'view:decisions', isEnabled: false }]);
    expect(mappings.map((m) => m.relationshipKeyName)).toEqual(ALL_PERMISSION_KEYS);
    expect(mappings.filter((m) => m.isEnabled).map((m) => m.relationshipKeyName)).toEqual(['manage:users']);
    expect(fullMappings().every((m) => !m.isEnabled)).toBe(true);
  });

  it('no one enables a key they do not hold', async () => {
    const held = new Set(['manage:roles', 'view:decisions']);
    expect(enabledBeyondCaller([{ relationshipKeyName: 'manage:users', isEnabled: true }, { relationshipKeyName: 'view:decisions', isEnabled: true }], held)).toEqual(['manage:users']);
    expect(enabledBeyondCaller([{ relationshipKeyName: 'manage:users', isEnabled: false }], held)).toEqual([]);
  });

  it('the request DTO refuses unknown keys and a key named twice', async () => {
    const errors = await validate(
      plainToInstance(CreateRoleDto, {
        roleName: 'X',
        relationshipMappings: [
          { relationshipKeyName: 'fly:planes', isEnabled: true },
          { relationshipKeyName: 'manage:users', isEnabled: true },
          { relationshipKeyName: 'manage:users', isEnabled: false },
        ],
      }),
    );
    const flat = errors.flatMap((e) => [e, ...(e.children ?? []).flatMap((c) => [c, ...(c.children ?? [])])]);
    expect(flat.some((e) => e.constraints?.arrayUnique)).toBe(true);
    expect(flat.some((e) => e.property === 'relationshipKeyName' && e.constraints?.isIn)).toBe(true);
  });
});
