import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CreateGroupTypeDto, UpdateGroupTypeDto } from './dto/group-type-change.dto';
import { ListGroupTypesQuery } from './dto/list-group-types.query';
import { DEFAULT_GROUP_TYPES, groupTypeChangeProblem, groupTypeDeleteProblem } from './group-type.rules';

const organizations = { groupTypeName: 'Organizations', status: 'ACTIVE', isDefault: true, shouldAllowEnableDisable: false };
const locations = { groupTypeName: 'Locations', status: 'ACTIVE', isDefault: true, shouldAllowEnableDisable: true };
const custom = { groupTypeName: 'Teams', status: 'ACTIVE', isDefault: false, shouldAllowEnableDisable: true };

const fieldsOf = async (cls: new () => object, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

describe('group type rules', () => {
  it('every tenant starts with Organizations (cannot be disabled, has addresses), Locations and Departments', () => {
    expect(DEFAULT_GROUP_TYPES.map((d) => [d.systemKey, d.groupTypeName, d.shouldAllowEnableDisable, d.addressEnabled])).toEqual([
      ['ORGANIZATIONS', 'Organizations', false, true],
      ['LOCATIONS', 'Locations', true, false],
      ['DEPARTMENTS', 'Departments', true, false],
    ]);
  });

  it('a type that cannot be disabled stays active; the others may be disabled; other changes are always fine', () => {
    expect(groupTypeChangeProblem(organizations, { status: 'INACTIVE' })).toBe('The group type "Organizations" cannot be disabled');
    expect(groupTypeChangeProblem(organizations, { status: 'ACTIVE', groupTypeName: 'Orgs', addressEnabled: false })).toBeNull();
    expect(groupTypeChangeProblem(locations, { status: 'INACTIVE', disableOption: 'KEEP_ASSOCIATIONS' })).toBeNull();
    expect(groupTypeChangeProblem(custom, { status: 'INACTIVE' })).toBeNull();
  });

  it('default types are never deleted; other types only when no group uses them', () => {
    expect(groupTypeDeleteProblem(locations, 0)).toBe('The group type "Locations" is a default type and cannot be deleted');
    expect(groupTypeDeleteProblem(custom, 1)).toBe('The group type "Teams" is used by 1 group; delete or move them first');
    expect(groupTypeDeleteProblem(custom, 3)).toMatch(/used by 3 groups/);
    expect(groupTypeDeleteProblem(custom, 0)).toBeNull();
  });
});

describe('group type requests', () => {
  it('create: name required, trimmed, at most 50; addressEnabled a boolean (or its string); nothing else accepted', async () => {
    expect(await fieldsOf(CreateGroupTypeDto, { groupTypeName: 'Teams', addressEnabled: 'true' })).toEqual([]);
    expect(plainToInstance(CreateGroupTypeDto, { groupTypeName: '  Teams ' }).groupTypeName).toBe('Teams');
    expect(await fieldsOf(CreateGroupTypeDto, {})).toEqual(['groupTypeName']);
    expect(await fieldsOf(CreateGroupTypeDto, { groupTypeName: '   ' })).toEqual(['groupTypeName']);
    expect(await fieldsOf(CreateGroupTypeDto, { groupTypeName: 'x'.repeat(51) })).toEqual(['groupTypeName']);
    expect(await fieldsOf(CreateGroupTypeDto, { groupTypeName: 'x'.repeat(50), addressEnabled: 'yes', isDefault: true, tenantId: 'nope' })).toEqual([
      'addressEnabled',
      'isDefault',
      'tenantId',
    ]);
  });

  it('update: each field checked when sent, null refused', async () => {
    expect(await fieldsOf(UpdateGroupTypeDto, { status: 'INACTIVE', disableOption: 'REMOVE_ASSOCIATIONS' })).toEqual([]);
    expect(await fieldsOf(UpdateGroupTypeDto, { status: 'OFF', disableOption: 'DROP', groupTypeName: null, addressEnabled: null })).toEqual([
      'addressEnabled',
      'disableOption',
      'groupTypeName',
      'status',
    ]);
  });

  it('list: isActive takes booleans and their strings', async () => {
    expect(plainToInstance(ListGroupTypesQuery, { isActive: 'false' }).isActive).toBe(false);
    expect(await fieldsOf(ListGroupTypesQuery, { isActive: 'maybe' })).toEqual(['isActive']);
    expect(await fieldsOf(ListGroupTypesQuery, { limit: '101' })).toEqual(['limit']);
  });
});
