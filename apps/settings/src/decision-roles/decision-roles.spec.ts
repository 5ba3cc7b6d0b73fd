import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { eventKindOf, namesAChange } from './decision-role.rules';
import { CreateDecisionRoleDto, UpdateDecisionRoleDto } from './dto/decision-role-change.dto';
import { toDecisionRolePayload, toDecisionRoleView } from './dto/decision-role.response';
import { ListDecisionRolesQuery } from './dto/list-decision-roles.query';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

describe('decision role rules', () => {
  it('an update must name roleName, status or isDeleted', () => {
    expect(namesAChange({})).toBe(false);
    expect(namesAChange({ roleName: 'Approver' })).toBe(true);
    expect(namesAChange({ status: 'INACTIVE' })).toBe(true);
    expect(namesAChange({ isDeleted: true })).toBe(true);
    expect(namesAChange({ isDeleted: false })).toBe(false); // changes nothing: a 400 like an empty PATCH
    expect(namesAChange({ isDeleted: false, status: 'ACTIVE' })).toBe(true);
  });

  it('deleting publishes "deleted", whatever else changes with it; other changes "updated"', () => {
    expect(eventKindOf({ isDeleted: true, roleName: 'X' })).toBe('deleted');
    expect(eventKindOf({ isDeleted: false })).toBe('updated');
    expect(eventKindOf({ status: 'INACTIVE' })).toBe('updated');
  });

  it('the view has exactly the fields of spec §2.7; the event carries the role without its tenant', () => {
    const view = toDecisionRoleView({ id: 'r1', tenant_id: 't1', role_name: 'Approver', is_deleted: false, status: 'ACTIVE' });
    expect(view).toEqual({ id: 'r1', tenantId: 't1', roleName: 'Approver', isDeleted: false, status: 'ACTIVE' });
    expect(toDecisionRolePayload(view)).toEqual({ id: 'r1', roleName: 'Approver', status: 'ACTIVE', isDeleted: false });
  });
});

describe('decision role input', () => {
  it('create: roleName required, trimmed, 1..50; status ACTIVE or INACTIVE; nothing else', async () => {
    expect(await problems(CreateDecisionRoleDto, { roleName: 'Approver' })).toEqual([]);
    expect(plainToInstance(CreateDecisionRoleDto, { roleName: '  Approver ' }).roleName).toBe('Approver');
    expect(await problems(CreateDecisionRoleDto, { roleName: 'x'.repeat(50), status: 'INACTIVE' })).toEqual([]);
    expect(await problems(CreateDecisionRoleDto, { roleName: 'x'.repeat(51) })).toEqual(['roleName']);
    expect(await problems(CreateDecisionRoleDto, { roleName: '   ' })).toEqual(['roleName']);
    expect(await problems(CreateDecisionRoleDto, {})).toEqual(['roleName']);
    expect(await problems(CreateDecisionRoleDto, { roleName: 'A', status: 'FOO' })).toEqual(['status']);
    expect(await problems(CreateDecisionRoleDto, { roleName: 'A', status: null })).toEqual(['status']);
    expect(await problems(CreateDecisionRoleDto, { roleName: 'A', tenantId: 'demo' })).toEqual(['tenantId']);
    expect(await problems(CreateDecisionRoleDto, { roleName: 'A', isDeleted: false })).toEqual(['isDeleted']);
  });

  it('update: isDeleted accepts booleans and "true"/"false"; null is not absent', async () => {
    expect(plainToInstance(UpdateDecisionRoleDto, { isDeleted: 'true' }).isDeleted).toBe(true);
    expect(plainToInstance(UpdateDecisionRoleDto, { isDeleted: 'false' }).isDeleted).toBe(false);
    expect(await problems(UpdateDecisionRoleDto, { isDeleted: 'false' })).toEqual([]);
    expect(await problems(UpdateDecisionRoleDto, { isDeleted: 'yes' })).toEqual(['isDeleted']);
    expect(await problems(UpdateDecisionRoleDto, { roleName: null, status: null, isDeleted: null })).toEqual(['isDeleted', 'roleName', 'status']);
    expect(await problems(UpdateDecisionRoleDto, { roleName: 'y'.repeat(51) })).toEqual(['roleName']);
    expect(await problems(UpdateDecisionRoleDto, {})).toEqual([]); // the service answers 400 "Nothing to change"
  });

  it('list: defaults, a comma list of statuses, bounds', async () => {
    const q = plainToInstance(ListDecisionRolesQuery, { status: 'ACTIVE, INACTIVE' });
    expect(q).toMatchObject({ page: 1, limit: 10, sortBy: 'roleName', sortOrder: 'asc', status: ['ACTIVE', 'INACTIVE'] });
    expect(await problems(ListDecisionRolesQuery, { status: 'ACTIVE,FOO' })).toEqual(['status']);
    expect(await problems(ListDecisionRolesQuery, { limit: '101' })).toEqual(['limit']);
    expect(await problems(ListDecisionRolesQuery, { limit: '100', page: '2', sortBy: 'updatedOn', sortOrder: 'desc' })).toEqual([]);
    expect(await problems(ListDecisionRolesQuery, { sortBy: 'status' })).toEqual(['sortBy']);
    expect(await problems(ListDecisionRolesQuery, { search: 's'.repeat(101) })).toEqual(['search']);
  });
});
