import {
  DelegationState,
  GridColumn,
  cellText,
  chosenRoles,
  csvField,
  exportFileName,
  externalLinkOpen,
  formatLimit,
  gridFilter,
  heldIn,
  holdsChosenRole,
  rowCells,
  shows,
  withinLimitRanges,
} from './grid.rules';

const approval = '00000000-0000-4000-8000-000000000001';
const signatory = '00000000-0000-4000-8000-000000000002';
const limit = (authorityTypeId: string, value: string | null, authorityLimit = 'Primary') => ({
  authorityTypeId,
  authorityLimit,
  authorityLimitValueType: 'Currency',
  authorityLimitOperator: '<',
  authorityLimitValue: value,
  authorityLimitValueUnit: 'USD',
});
const delegation = (over: Partial<DelegationState> = {}): DelegationState => ({
  delegation_id: 'd1',
  decision_id: 'x',
  delegation_display_id: '10000',
  status: 'ISSUED',
  recipient_user_id: 'u1',
  recipient_position_id: 'p1',
  group_ids: ['g1'],
  pathways: ['Direct Line', 'Functional'],
  authorities: [limit(approval, '500000')],
  is_invalid: false,
  role_ids: [],
  ...over,
});
const informed = '00000000-0000-4000-8000-0000000000a1';
const consulted = '00000000-0000-4000-8000-0000000000a2';
const approver = '00000000-0000-4000-8000-0000000000a3';

describe('grid rules', () => {
  it('a delegation is held in the column of its recipient user, its recipient position, and each of its groups', () => {
    const d = delegation();
    expect(heldIn(d, { id: 'u1', kind: 'user' })).toBe(true);
    expect(heldIn(d, { id: 'p1', kind: 'position' })).toBe(true);
    expect(heldIn(d, { id: 'g1', kind: 'group' })).toBe(true);
    expect(heldIn(d, { id: 'p1', kind: 'user' })).toBe(false);
    expect(heldIn(d, { id: 'g2', kind: 'group' })).toBe(false);
  });

  it('the matrix filters: statuses, authority types, limit ranges (Unlimited is above any max; the Authority flag is no range)', () => {
    const d = delegation();
    expect(shows(d, {})).toBe(true);
    expect(shows(d, { issuanceStatusNames: ['SUSPENDED'] })).toBe(false);
    expect(shows(d, { authorityTypeIds: [signatory] })).toBe(false);
    expect(shows(d, { authorityTypeIds: [approval.toUpperCase()] })).toBe(true);
    expect(withinLimitRanges(d, { Primary: { min: 0, max: 1000000 }, Authority: true })).toBe(true);
    expect(withinLimitRanges(d, { Primary: { min: 600000 } })).toBe(false);
    expect(withinLimitRanges(d, { Primary: { max: 100000 } })).toBe(false);
    expect(withinLimitRanges(d, { Secondary: { max: 1 } })).toBe(true); // no limit of that type
    expect(withinLimitRanges(delegation({ authorities: [limit(approval, 'Unlimited')] }), { Primary: { max: 1000000 } })).toBe(false);
  });

  it('a role matrix with roles chosen shows only delegations holding one of them (ACTIVE); without roles, or not a role matrix, no role filter', () => {
    const informedOne = delegation({ role_ids: [informed] });
    const consultedOne = delegation({ delegation_id: 'd2', role_ids: [consulted] });
    const none = delegation({ delegation_id: 'd3', role_ids: [] });
    const roleMatrix = { delegationRole: true, roleIds: [informed.toUpperCase()] };
    expect([informedOne, consultedOne, none].filter((d) => shows(d, roleMatrix)).map((d) => d.delegation_id)).toEqual(['d1']);
    expect(holdsChosenRole(consultedOne, { delegationRole: true, roleIds: [informed, consulted] })).toBe(true);
    // Not a role matrix: roleIds stored but no role filter; a role matrix without roles: none either.
    expect(shows(none, { delegationRole: false, roleIds: [informed] })).toBe(true);
    expect(shows(none, { delegationRole: true, roleIds: [] })).toBe(true);
    expect(chosenRoles({ delegationRole: true })).toBeNull();
    // The other filters still apply on top.
    expect(shows(informedOne, { ...roleMatrix, issuanceStatusNames: ['SUSPENDED'] })).toBe(false);
  });

  it('gridFilter: roleMatrix or delegationRole makes a role matrix; its roles are roleIds and the enabled matrixAuthorityRoles', () => {
    expect(gridFilter({ roleIds: [informed] }, { role_matrix: false, authority_roles: [] })).toMatchObject({ delegationRole: false, roleIds: [informed] });
    const f = gridFilter(
      { roleIds: [informed.toUpperCase()], issuanceStatusNames: ['ISSUED'] },
      { role_matrix: true, authority_roles: [{ authorityRoleId: consulted, isEnabled: true }, { authorityRoleId: approver, isEnabled: false }, { authorityRoleId: informed, isEnabled: true }] },
    );
    expect(f).toEqual({ issuanceStatusNames: ['ISSUED'], delegationRole: true, roleIds: [informed, consulted] });
    expect(gridFilter(null, { role_matrix: null, authority_roles: null })).toEqual({ delegationRole: false, roleIds: [] });
    expect(chosenRoles(gridFilter({ delegationRole: true }, { authority_roles: [{ authorityRoleId: approver, isEnabled: true }] }))).toEqual([approver]);
    const columns: GridColumn[] = [{ id: 'p1', kind: 'position', name: 'CFO' }];
    const cells = rowCells(columns, [delegation({ role_ids: [consulted] }), delegation({ delegation_id: 'd2', role_ids: [approver] })], f, {}, new Map());
    expect(cells[0].delegations.map((e) => e.delegationId)).toEqual(['d1']);
  });

  it('cells: one entry per authority shown, formatted by the matrix; a delegation without limits shows once', () => {
    const columns: GridColumn[] = [
      { id: 'p1', kind: 'position', name: 'CFO' },
      { id: 'u2', kind: 'user', name: 'Someone' },
    ];
    const two = delegation({ authorities: [limit(approval, '500000'), limit(signatory, '250000')] });
    const names = new Map([[approval, 'Approval'], [signatory, 'Signatory']]);
    const cells = rowCells(columns, [two, delegation({ delegation_id: 'd2', recipient_user_id: 'u2', recipient_position_id: null, authorities: [] })], { authorityTypeIds: [] }, { valueAbbrevations: 'Abbreviated' }, names);
    expect(cells[0].delegations.map((e) => [e.authorityType, e.formattedLimit, e.pathway])).toEqual([
      ['Approval', '< 500K', 'Direct Line, Functional'],
      ['Signatory', '< 250K', 'Direct Line, Functional'],
    ]);
    expect(cells[1].delegations).toEqual([expect.objectContaining({ delegationId: 'd2', authorityType: null, formattedLimit: '' })]);
    const onlySignatory = rowCells(columns, [two], { authorityTypeIds: [signatory] }, {}, names);
    expect(onlySignatory[0].delegations.map((e) => e.authorityType)).toEqual(['Signatory']);
    expect(cellText(cells[0])).toBe('< 500K Approval (Direct Line, Functional, ISSUED) #10000\n< 250K Signatory (Direct Line, Functional, ISSUED) #10000');
    expect(cellText({ columnId: 'x', delegations: [{ ...cells[1].delegations[0], isInvalid: true }] })).toBe('(Direct Line, Functional, ISSUED, invalid) #10000');
  });

  it('orders the entries of a cell by display id (numeric ids by value, none last), then delegation id, whatever order the delegations come in; a delegation keeps its entries together', () => {
    const columns: GridColumn[] = [{ id: 'p1', kind: 'position', name: 'CFO' }];
    const d = (delegation_id: string, delegation_display_id: string | null, authorities = [limit(approval, '1')]) => delegation({ delegation_id, delegation_display_id, authorities });
    const given = [d('e', null), d('c', '10010'), d('b', '9999', [limit(approval, '1'), limit(signatory, '2')]), d('a', '10010'), d('f', '10002')];
    const order = (list: DelegationState[]) => rowCells(columns, list, {}, {}, new Map())[0].delegations.map((e) => `${e.delegationId}${e.formattedLimit}`);
    const expected = ['b< 1', 'b< 2', 'f< 1', 'a< 1', 'c< 1', 'e< 1'];
    expect(order(given)).toEqual(expected);
    expect(order([...given].reverse())).toEqual(expected);
  });

  it('limits: abbreviations, rounding, currency code, percentages, time units, Authorized and Unlimited', () => {
    const currency = { valueType: 'Currency', operator: '<', value: '500000', unit: 'USD' };
    expect(formatLimit(currency)).toBe('< 500,000');
    expect(formatLimit(currency, { valueAbbrevations: 'Abbreviated' })).toBe('< 500K');
    expect(formatLimit(currency, { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes' })).toBe('< 500K USD');
    expect(formatLimit({ ...currency, value: '1250000' }, { valueAbbrevations: 'Abbreviated', valueRounding: '1' })).toBe('< 1.3M');
    expect(formatLimit({ ...currency, value: '1250000' }, { valueAbbrevations: 'Abbreviated', valueRounding: '2' })).toBe('< 1.25M');
    expect(formatLimit({ ...currency, value: '2500000000' }, { valueAbbrevations: 'Abbreviated' })).toBe('< 2.5B');
    expect(formatLimit({ ...currency, value: '999' }, { valueAbbrevations: 'Abbreviated' })).toBe('< 999');
    expect(formatLimit({ ...currency, value: '1234.567' }, { valueRounding: '0' })).toBe('< 1,235');
    expect(formatLimit({ valueType: 'Percentage', operator: '<=', value: '12.5', unit: null })).toBe('<= 12.5%');
    expect(formatLimit({ valueType: 'Time', operator: '<', value: '14', unit: 'Days' }, { timeUnit: 'Weeks' })).toBe('< 2 Weeks');
    expect(formatLimit({ valueType: 'Time', operator: '<', value: '30', unit: 'Days' })).toBe('< 30 Days');
    expect(formatLimit({ valueType: 'Number', operator: null, value: '12', unit: 'units' })).toBe('12 units');
    expect(formatLimit({ valueType: 'Authorized', operator: null, value: null, unit: null })).toBe('Authorized');
    expect(formatLimit({ ...currency, value: 'Unlimited' })).toBe('< Unlimited');
  });

  it('exports: a safe download name; CSV fields quoted when needed, formulas neutralised', () => {
    expect(exportFileName('Finance, Q1 / "board"', 'csv')).toBe('Finance-Q1-board.csv');
    expect(exportFileName('***', 'xlsx', '2026-03-31T00:00:00.000Z')).toBe('matrix-as-of-2026-03-31.xlsx');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField(null)).toBe('');
  });

  it('external links: only enabled and unexpired ones open', () => {
    const now = new Date('2026-06-01T00:00:00.000Z');
    expect(externalLinkOpen({ enabled: false, expirationEnabled: false, expirationDate: null }, now)).toBe(false);
    expect(externalLinkOpen({ enabled: true, expirationEnabled: false, expirationDate: '2020-01-01T00:00:00.000Z' }, now)).toBe(true);
    expect(externalLinkOpen({ enabled: true, expirationEnabled: true, expirationDate: '2026-05-31T23:59:59.999Z' }, now)).toBe(false);
    expect(externalLinkOpen({ enabled: true, expirationEnabled: true, expirationDate: '2026-06-01T00:00:00.001Z' }, now)).toBe(true);
  });
});
