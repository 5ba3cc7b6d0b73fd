import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DEFAULT_AUTHORITY_TYPES, authorityTypeChangeProblem, eventKindOf, namesAChange, orderAfter } from './authority-type.rules';
import { CreateAuthorityTypeDto, UpdateAuthorityTypeDto } from './dto/authority-type-change.dto';
import { toAuthorityTypePayload, toAuthorityTypeView } from './dto/authority-type.response';
import { ListAuthorityTypesQuery } from './dto/list-authority-types.query';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

describe('authority type rules', () => {
  it('every tenant starts with Approval (order 1) and Signatory (order 2)', () => {
    expect(DEFAULT_AUTHORITY_TYPES.map((d) => [d.systemKey, d.authorityType, d.authorityTypeOrder])).toEqual([
      ['APPROVAL', 'Approval', 1],
      ['SIGNATORY', 'Signatory', 2],
    ]);
  });

  it('a default type is never deleted; it may be renamed, reordered, given an icon, deactivated; other types may be deleted', () => {
    const approval = { authorityType: 'Approval', isDefault: true };
    expect(authorityTypeChangeProblem(approval, { isDeleted: true })).toBe('The authority type "Approval" is a default type and cannot be deleted');
    expect(authorityTypeChangeProblem(approval, { authorityType: 'Approve', authorityTypeOrder: 5, authorityTypeIcon: 'x', status: 'INACTIVE', isDeleted: false })).toBeNull();
    expect(authorityTypeChangeProblem({ authorityType: 'Endorsement', isDefault: false }, { isDeleted: true })).toBeNull();
  });

  it('a type created without an order goes after the last', () => {
    expect(orderAfter(2)).toBe(3);
    expect(orderAfter(0)).toBe(1);
    expect(orderAfter(null)).toBe(1);
  });

  it('an update names a field (a null icon included); isDeleted: false alone is nothing; deleting publishes "deleted"', () => {
    expect(namesAChange({})).toBe(false);
    expect(namesAChange({ isDeleted: false })).toBe(false);
    expect(namesAChange({ authorityTypeIcon: null })).toBe(true);
    expect(namesAChange({ authorityTypeOrder: 0 })).toBe(true);
    expect(namesAChange({ status: 'INACTIVE' })).toBe(true);
    expect(eventKindOf({ isDeleted: true, authorityType: 'X' })).toBe('deleted');
    expect(eventKindOf({ authorityTypeOrder: 3 })).toBe('updated');
  });
});

describe('authority type views', () => {
  it('the view and the event carry the fields the decision area projects', () => {
    const view = toAuthorityTypeView({
      id: 'a1',
      tenant_id: 't1',
      authority_type: 'Approval',
      authority_type_icon: null,
      authority_type_order: 1,
      status: 'ACTIVE',
      is_default: true,
      is_deleted: false,
      created_at: '2026-01-31T12:00:00.000Z',
      updated_at: '2026-01-31T12:00:00.000Z',
    });
    expect(view).toEqual({
      id: 'a1',
      tenantId: 't1',
      authorityType: 'Approval',
      authorityTypeIcon: null,
      authorityTypeOrder: 1,
      status: 'ACTIVE',
      isDefault: true,
      isDeleted: false,
      createdAt: '2026-01-31T12:00:00.000Z',
      updatedAt: '2026-01-31T12:00:00.000Z',
    });
    expect(toAuthorityTypePayload(view)).toEqual({
      id: 'a1',
      authorityType: 'Approval',
      authorityTypeIcon: null,
      authorityTypeOrder: 1,
      status: 'ACTIVE',
      isDefault: true,
      isDeleted: false,
    });
  });
});

describe('authority type input', () => {
  it('create: authorityType required, 1..50; icon a string up to 100 or null; order an integer 0..1,000,000; status ACTIVE/INACTIVE', async () => {
    expect(await problems(CreateAuthorityTypeDto, { authorityType: 'Endorsement', authorityTypeIcon: 'pen', authorityTypeOrder: 0, status: 'INACTIVE' })).toEqual([]);
    expect(await problems(CreateAuthorityTypeDto, { authorityType: 'x'.repeat(50), authorityTypeIcon: null })).toEqual([]);
    expect(plainToInstance(CreateAuthorityTypeDto, { authorityType: ' Endorsement ' }).authorityType).toBe('Endorsement');
    expect(
      await problems(CreateAuthorityTypeDto, { authorityType: 'x'.repeat(51), authorityTypeIcon: 'i'.repeat(101), authorityTypeOrder: -1, status: 'ON', isDefault: true }),
    ).toEqual(['authorityType', 'authorityTypeIcon', 'authorityTypeOrder', 'isDefault', 'status']);
    expect(await problems(CreateAuthorityTypeDto, { authorityType: 'A', authorityTypeOrder: 1.5 })).toEqual(['authorityTypeOrder']);
    expect(await problems(CreateAuthorityTypeDto, { authorityType: 'A', authorityTypeOrder: '3' })).toEqual(['authorityTypeOrder']);
    expect(await problems(CreateAuthorityTypeDto, { authorityType: 'A', authorityTypeOrder: 1_000_001 })).toEqual(['authorityTypeOrder']);
    expect(await problems(CreateAuthorityTypeDto, { authorityType: 'A', authorityTypeOrder: null, status: null })).toEqual(['authorityTypeOrder', 'status']);
    expect(await problems(CreateAuthorityTypeDto, {})).toEqual(['authorityType']);
  });

  it('update: every field optional; a null icon clears it, null elsewhere is refused', async () => {
    expect(await problems(UpdateAuthorityTypeDto, {})).toEqual([]); // the service answers 400 "Nothing to change"
    expect(await problems(UpdateAuthorityTypeDto, { authorityTypeIcon: null, isDeleted: 'false' })).toEqual([]);
    expect(await problems(UpdateAuthorityTypeDto, { authorityType: null, authorityTypeOrder: null, status: null, isDeleted: null })).toEqual([
      'authorityType',
      'authorityTypeOrder',
      'isDeleted',
      'status',
    ]);
  });

  it('list: by order unless told; a comma list of statuses; sorts', async () => {
    expect(plainToInstance(ListAuthorityTypesQuery, { status: 'ACTIVE' })).toMatchObject({ sortBy: 'authorityTypeOrder', sortOrder: 'asc', status: ['ACTIVE'] });
    expect(await problems(ListAuthorityTypesQuery, { sortBy: 'authorityType', status: 'ACTIVE,INACTIVE', search: 'app' })).toEqual([]);
    expect(await problems(ListAuthorityTypesQuery, { sortBy: 'status', status: 'ON' })).toEqual(['sortBy', 'status']);
  });
});
