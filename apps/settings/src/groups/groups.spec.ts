import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { CreateGroupDto, UpdateGroupDto } from './dto/group-change.dto';
import { ListGroupsQuery } from './dto/list-groups.query';
import { addressProblem, groupUpdateProblem, mergeAddress, randomGroupCode } from './group.rules';

const G = '0196a000-0000-7000-8000-000000000001';
const P1 = '0196a000-0000-7000-8000-000000000002';
const P2 = '0196a000-0000-7000-8000-000000000003';
const TYPE = '0196a000-0000-7000-8000-0000000000aa';

const flat = (errors: ValidationError[], parent = ''): string[] =>
  errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    return [...(e.constraints ? [field] : []), ...flat(e.children ?? [], field)];
  });
const fieldsOf = async (cls: new () => object, plain: object) =>
  flat(await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).sort();

describe('group rules', () => {
  it('groupId codes are 6 upper-case letters and digits', () => {
    for (let i = 0; i < 200; i++) expect(randomGroupCode()).toMatch(/^[A-Z0-9]{6}$/);
    expect(randomGroupCode(() => 0)).toBe('AAAAAA');
    expect(randomGroupCode((max) => max - 1)).toBe('999999');
  });

  it('an update must change something', () => {
    expect(groupUpdateProblem(G, {})).toEqual({ message: expect.stringMatching(/^Nothing to change: send at least one of tenantGroupTypeId, /) });
    expect(groupUpdateProblem(G, { tenantId: TYPE } as never)).toEqual({ message: expect.stringMatching(/^Nothing to change/) });
    expect(groupUpdateProblem(G, { groupName: 'x' })).toBeNull();
    expect(groupUpdateProblem(G, { isDeleted: false })).toEqual({ message: expect.stringMatching(/^Nothing to change/) });
    expect(groupUpdateProblem(G, { isDeleted: false, groupName: 'x' })).toBeNull();
    expect(groupUpdateProblem(G, { isDeleted: true })).toBeNull();
  });

  it('a deletion comes alone (with its disableOption only)', () => {
    expect(groupUpdateProblem(G, { isDeleted: true, disableOption: 'REMOVE_ASSOCIATIONS' })).toBeNull();
    expect(groupUpdateProblem(G, { isDeleted: true, groupName: 'x', addParentGroupIds: [P1] })).toEqual({
      field: 'isDeleted',
      message: 'isDeleted: true deletes the group and cannot be combined with groupName, addParentGroupIds',
    });
  });

  it('a parent cannot be added and removed at once, and a group is never its own parent', () => {
    expect(groupUpdateProblem(G, { addParentGroupIds: [P1, P2], removeParentGroupIds: [P2.toUpperCase()] })).toEqual({
      field: 'removeParentGroupIds',
      message: `cannot add and remove the same parent: ${P2}`,
    });
    expect(groupUpdateProblem(G, { addParentGroupIds: [P1, G.toUpperCase()] })).toEqual({
      field: 'addParentGroupIds',
      message: 'a group cannot be its own parent (that would make a cycle)',
    });
    expect(groupUpdateProblem(G, { addParentGroupIds: [P1], removeParentGroupIds: [P2] })).toBeNull();
  });

  it('an address patch replaces the fields sent (null clears one) and keeps the others', () => {
    const stored = { street1: '1 Main St', street2: null, city: 'Springfield', state: 'Ohio', stateCode: 'OH', zipCode: '45501', country: 'United States', countryCode: 'US' };
    expect(mergeAddress(stored, { city: 'Dayton', stateCode: null })).toEqual({ ...stored, city: 'Dayton', stateCode: null });
    expect(mergeAddress(null, { city: 'Dayton' })).toEqual({
      street1: null,
      street2: null,
      city: 'Dayton',
      state: null,
      stateCode: null,
      zipCode: null,
      country: null,
      countryCode: null,
    });
  });

  it('an address needs a type with addressEnabled; moving an addressed group to a type without needs address: null', () => {
    const base = { typeAllowsAddress: false, addressSent: false, addressCleared: false, hasAddress: false, typeChanged: false };
    expect(addressProblem({ ...base, addressSent: true })).toEqual({ field: 'address', message: expect.stringMatching(/does not allow an address/) });
    expect(addressProblem({ ...base, addressSent: true, typeAllowsAddress: true })).toBeNull();
    expect(addressProblem({ ...base, hasAddress: true, typeChanged: true })).toEqual({ field: 'tenantGroupTypeId', message: expect.stringMatching(/address: null/) });
    expect(addressProblem({ ...base, hasAddress: true, typeChanged: true, addressCleared: true })).toBeNull();
    expect(addressProblem({ ...base, hasAddress: true })).toBeNull();
  });
});

describe('group requests', () => {
  it('create: type and name required; lengths, currency, status, parents and address checked; nothing else accepted', async () => {
    expect(await fieldsOf(CreateGroupDto, { tenantGroupTypeId: TYPE, groupName: 'Engineering', baseCurrency: 'USD', parentGroupIds: [P1], address: { city: 'X' } })).toEqual([]);
    expect(await fieldsOf(CreateGroupDto, {})).toEqual(['groupName', 'tenantGroupTypeId']);
    expect(
      await fieldsOf(CreateGroupDto, {
        tenantGroupTypeId: 'type',
        groupName: 'x'.repeat(101),
        displayName: 'x'.repeat(101),
        legalName: 'x'.repeat(101),
        baseCurrency: 'usd',
        status: 'ARCHIVED',
        parentGroupIds: [P1, 'nope'],
        externalId: 'x'.repeat(256),
        instanceId: 'x'.repeat(256),
        isSynced: 'sometimes',
        address: { countryCode: 'USAA', planet: 'Earth' },
        color: 'blue',
      }),
    ).toEqual(
      [
        'address.countryCode',
        'address.planet',
        'baseCurrency',
        'color',
        'displayName',
        'externalId',
        'groupName',
        'instanceId',
        'isSynced',
        'legalName',
        'parentGroupIds',
        'status',
        'tenantGroupTypeId',
      ].sort(),
    );
    expect(await fieldsOf(CreateGroupDto, { tenantGroupTypeId: TYPE, groupName: 'x', parentGroupIds: Array.from({ length: 51 }, () => P1) })).toEqual(['parentGroupIds']);
  });

  it('update: parents to add and remove are uuid arrays; nullable fields take null, required ones do not', async () => {
    expect(await fieldsOf(UpdateGroupDto, { displayName: null, legalName: null, baseCurrency: null, address: null, addParentGroupIds: [P1], removeParentGroupIds: [P2] })).toEqual([]);
    expect(await fieldsOf(UpdateGroupDto, { groupName: null, status: null, tenantGroupTypeId: null, isDeleted: null, disableOption: 'LATER', parentGroupIds: [P1] })).toEqual(
      ['disableOption', 'groupName', 'isDeleted', 'parentGroupIds', 'status', 'tenantGroupTypeId'].sort(),
    );
    expect(await fieldsOf(UpdateGroupDto, { addParentGroupIds: ['x'], removeParentGroupIds: 'y' })).toEqual(['addParentGroupIds', 'removeParentGroupIds']);
  });

  it('list: comma lists, enumerated values, dates and sorts are checked', async () => {
    const q = plainToInstance(ListGroupsQuery, { status: 'ACTIVE, INACTIVE', tenantGroupTypeIds: `${TYPE},${P1}` });
    expect(q.status).toEqual(['ACTIVE', 'INACTIVE']);
    expect(q.tenantGroupTypeIds).toEqual([TYPE, P1]);
    expect(q.sortBy).toBe('groupName');
    expect(await fieldsOf(ListGroupsQuery, { status: 'ACTIVE,FOO', tenantGroupTypeIds: 'x', parentGroupId: 'y', createdAtStart: 'yesterday', sortBy: 'color', sortOrder: 'up' })).toEqual(
      ['createdAtStart', 'parentGroupId', 'sortBy', 'sortOrder', 'status', 'tenantGroupTypeIds'].sort(),
    );
    expect(await fieldsOf(ListGroupsQuery, { createdAtEnd: '2026-01-31T12:00:00.000Z', updatedAtStart: '2026-01-01' })).toEqual([]);
  });
});
