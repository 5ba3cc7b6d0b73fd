import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ListPositionsQuery } from './dto/list-positions.query';
import { BulkStatusDto, CreatePositionDto, DeletePositionsDto } from './dto/position-change.dto';
import { chosenFields, POSITION_FIELDS, scimFilter, statusFilter, uniqueIds } from './position.rules';
import { PositionRow, selectFields, toPositionView } from './dto/position.response';
import { positionListSql, toPositionPage } from './position.sql';

const T = '0190a000-0000-7000-8000-000000000001';
const A = '0190a000-0000-7000-8000-00000000000a';
const B = '0190a000-0000-7000-8000-00000000000b';

const query = (raw: Record<string, unknown>) => plainToInstance(ListPositionsQuery, raw);
const problems = (cls: new () => object, raw: Record<string, unknown>) =>
  validateSync(plainToInstance(cls, raw) as object, { whitelist: true, forbidNonWhitelisted: true }).map((e) => e.property);

const row = (over: Partial<PositionRow> = {}): PositionRow => ({
  id: A,
  tenant_id: T,
  position_display_id: '10000',
  position_name: 'Senior Developer',
  is_scim_provisioned: false,
  status: 'ACTIVE',
  is_deleted: false,
  created_on: '2026-01-01T00:00:00.000Z',
  updated_on: '2026-01-02T00:00:00.000Z',
  external_id: null,
  instance_id: null,
  delegations_received: 2,
  delegations_issued: 1,
  groups: null,
  ...over,
});

describe('position rules', () => {
  it('sourceType: Manual = not SCIM, Directory Sync = SCIM, All or both = no filter', () => {
    expect(scimFilter(undefined)).toBeNull();
    expect(scimFilter([])).toBeNull();
    expect(scimFilter(['All'])).toBeNull();
    expect(scimFilter(['All', 'Manual'])).toBeNull();
    expect(scimFilter(['Manual', 'Directory Sync'])).toBeNull();
    expect(scimFilter(['Manual'])).toBe(false);
    expect(scimFilter(['Directory Sync'])).toBe(true);
  });

  it('status: one status filters; none or both do not', () => {
    expect(statusFilter(undefined)).toBeNull();
    expect(statusFilter(['ACTIVE', 'INACTIVE'])).toBeNull();
    expect(statusFilter(['INACTIVE'])).toBe('INACTIVE');
    expect(statusFilter(['ACTIVE', 'ACTIVE'])).toBe('ACTIVE');
  });

  it('select wins over the deprecated fields; answers in the §2.6 order (unknown names are refused by the query DTO)', () => {
    expect(chosenFields(undefined, undefined)).toBeNull();
    expect(chosenFields(['positionName', 'id'], ['status'])).toEqual(['id', 'positionName']);
    expect(chosenFields(undefined, ['status', 'groups'])).toEqual(['status', 'groups']);
    expect(chosenFields([], ['status'])).toEqual(['status']);
  });

  it('makes ids unique, case-insensitively', () => {
    expect(uniqueIds([A, A.toUpperCase(), B])).toEqual([A, B]);
  });
});

describe('position view', () => {
  it('maps a row to exactly the §2.6 fields, in order', () => {
    const v = toPositionView(row());
    expect(Object.keys(v)).toEqual([...POSITION_FIELDS]);
    expect(v).toMatchObject({ id: A, tenantId: T, positionId: '10000', isSCIMProvisioned: false, delegationsReceived: 2, delegationsIssued: 1, groups: [] });
  });

  it('selectFields keeps only the named keys; none = the whole view', () => {
    const v = toPositionView(row());
    expect(selectFields(v, ['id', 'positionName'])).toEqual({ id: A, positionName: 'Senior Developer' });
    expect(selectFields(v, null)).toBe(v);
    expect(selectFields(v, [])).toBe(v);
  });

  it('a list page: items (select applied), total from the first row; an empty page still has its total', () => {
    const page = toPositionPage([{ ...row(), total: 7, ord: 1 }, { ...row({ id: B }), total: 7, ord: 2 }], { select: ['id'] });
    expect(page).toEqual({ items: [{ id: A }, { id: B }], total: 7 });
    expect(toPositionPage([{ ...row(), total: 3, ord: null }], {})).toEqual({ items: [], total: 3 });
    expect(toPositionPage([], {})).toEqual({ items: [], total: 0 });
  });
});

describe('positionListSql', () => {
  const sql = (raw: Record<string, unknown>) => positionListSql(T, query(raw));

  it('every filter value is a parameter, never spliced into the text', () => {
    const { text, values } = sql({
      sourceType: 'Directory Sync',
      search: "50%' OR '1'='1",
      groupIds: `${A},${B}`,
      selectedPositionIds: A,
      createdAtStart: '2026-01-01T00:00:00.000Z',
      updatedAtEnd: '2026-02-03T00:00:00.000Z',
      delegationIssuerType: 'ROOT_AUTHORITY',
      delegationPathway: 'Matrix,Direct Line',
      pinnedPositionIds: B,
    });
    expect(values).toEqual(
      expect.arrayContaining([T, true, "%50\\%' OR '1'='1%", [A, B], [A], '2026-01-01T00:00:00.000Z', '2026-02-03T00:00:00.000Z', 'ROOT_AUTHORITY', ['Matrix', 'Direct Line'], [B]]),
    );
    for (const v of [T, A, B, '50%', "'1'='1", 'ROOT_AUTHORITY', 'Matrix', '2026-01-01']) expect(text).not.toContain(v);
    expect(text.split(';')).toHaveLength(1);
  });

  it('takes raw values too (the bench passes plain objects)', () => {
    const { values } = positionListSql(T, { status: 'ACTIVE' as never, sortBy: 'positionName', limit: 20 });
    expect(values).toEqual(expect.arrayContaining([T, 'ACTIVE', 20, 0]));
  });
});

describe('request validation', () => {
  it('accepts every documented list parameter', () => {
    expect(
      problems(ListPositionsQuery, {
        page: '2',
        limit: '100',
        tenantId: T,
        sourceType: 'All,Directory Sync',
        groupIds: `${A},${B}`,
        status: 'ACTIVE,INACTIVE',
        search: 'Dev',
        sortBy: 'positionId',
        sortOrder: 'desc',
        select: 'id,positionName,groups',
        fields: 'id',
        selectedPositionIds: A,
        createdAtStart: '2024-01-01T00:00:00.000Z',
        createdAtEnd: '2024-12-31T23:59:59.999Z',
        updatedAtStart: '2024-01-01T00:00:00Z',
        updatedAtEnd: '2024-12-31',
        delegationIssuerType: 'SPECIFIC_PERSONNEL',
        delegationIssuerUserId: A,
        delegationIssuerPositionId: B,
        delegationPathway: 'Matrix,Functional',
        delegationRecipientType: 'PERSONNEL_IN_POSITION',
        pinnedPositionIds: B,
      }),
    ).toEqual([]);
  });

  it.each([
    ['limit', { limit: '101' }],
    ['limit', { limit: '0' }],
    ['sourceType', { sourceType: 'Foo' }],
    ['status', { status: 'ACTIVE,DELETED' }],
    ['sortBy', { sortBy: 'name' }],
    ['select', { select: 'id,password' }],
    ['fields', { fields: 'nope' }],
    ['groupIds', { groupIds: 'not-a-uuid' }],
    ['selectedPositionIds', { selectedPositionIds: Array.from({ length: 101 }, () => A).join(',') }],
    ['createdAtStart', { createdAtStart: 'yesterday' }],
    ['delegationIssuerType', { delegationIssuerType: 'FOO' }],
    ['delegationRecipientType', { delegationRecipientType: 'ROOT_AUTHORITY' }],
    ['delegationIssuerUserId', { delegationIssuerUserId: '42' }],
    ['delegationPathway', { delegationPathway: 'x'.repeat(51) }],
    ['pinnedPositionIds', { pinnedPositionIds: 'x' }],
    ['offset', { offset: '5' }],
  ])('400 for a bad %s', (field, raw) => {
    expect(problems(ListPositionsQuery, raw)).toEqual([field]);
  });

  it('fields is marked deprecated in the OpenAPI document; select is not', () => {
    const meta = (p: string) => Reflect.getMetadata('swagger/apiModelProperties', ListPositionsQuery.prototype, p);
    expect(meta('fields')).toMatchObject({ deprecated: true });
    expect(meta('select').deprecated).toBeUndefined();
  });

  it('changes: name required and at most 200, ids 1..500 UUIDs (comma-joined entries split), status known, no unknown field', () => {
    expect(problems(CreatePositionDto, { positionName: 'Dev', groupIds: [`${A}, ${B}`] })).toEqual([]);
    expect(plainToInstance(CreatePositionDto, { positionName: ' Dev ', groupIds: [`${A}, ${B}`] })).toMatchObject({ positionName: 'Dev', groupIds: [A, B] });
    expect(problems(CreatePositionDto, { positionName: 'x'.repeat(201) })).toEqual(['positionName']);
    expect(problems(CreatePositionDto, { positionName: '  ' })).toEqual(['positionName']);
    expect(problems(CreatePositionDto, { positionName: 'Dev', groupIds: Array.from({ length: 101 }, () => A) })).toEqual(['groupIds']);
    expect(problems(CreatePositionDto, { positionName: 'Dev', isAdmin: true })).toEqual(['isAdmin']);
    expect(problems(DeletePositionsDto, { ids: [] })).toEqual(['ids']);
    expect(problems(DeletePositionsDto, { ids: Array.from({ length: 501 }, () => A) })).toEqual(['ids']);
    expect(problems(DeletePositionsDto, { ids: [A, 'nope'] })).toEqual(['ids']);
    expect(problems(BulkStatusDto, { ids: [A], status: 'DELETED' })).toEqual(['status']);
    expect(problems(BulkStatusDto, { ids: Array.from({ length: 500 }, () => A), status: 'INACTIVE' })).toEqual([]);
  });
});
