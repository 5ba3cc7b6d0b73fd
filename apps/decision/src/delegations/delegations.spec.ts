import { AppError } from '@ddm/contracts';
import { IssueFacts } from '../core/delegation.sql';
import { OrgView, ProposedDelegation } from '../core/delegation.types';
import { planIssue } from './delegation.rules';
import { DecisionScope, DelegationRuleRow } from '../core/delegation.types';
import { CheckCascadingUpdatesDto, proposedCascade } from './dto/cascading.dto';
import { CreateDelegationDto, UpdateDelegationDto, delegationLimits, proposedChange, proposedDelegation, recipientChange, uniqueDocuments, uniqueGroups } from './dto/delegation-change.dto';

const TYPE = '0190F5C4-0000-7000-8000-000000000001';
const USER = '0190F5C4-0000-7000-8000-0000000000AA';
const POS = '0190f5c4-0000-7000-8000-0000000000bb';
const usd = (value: string, extra: object = {}) => ({ authorityTypeId: TYPE, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: value, authorityLimitValueUnit: 'USD', ...extra });
const create = (extra: Partial<CreateDelegationDto> = {}): CreateDelegationDto =>
  ({ decisionId: 'd', recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: USER }], delegationAuthorities: [usd('1000')], ...extra }) as CreateDelegationDto;
/** The fields a refused request names (the 400's errors). */
const refused = (f: () => unknown): string[] => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return ((e as AppError).errors ?? []).map((x) => x.field);
  }
  throw new Error('not refused');
};

describe('a delegation request read as the rules read it', () => {
  it('recipients with ids in lower case, groups and documents each once, the limits as stored', () => {
    const { proposed, groups, documents } = proposedDelegation(
      create({
        delegationGroups: [{ groupId: 'G1', tenantGroupTypeId: 'T1' }, { groupId: 'g1', tenantGroupTypeId: 'other' }, { groupId: 'G2' }],
        delegationDocuments: [{ documentId: 'D1', isPinned: true }, { documentId: 'D2' }, { documentId: 'd1', isPinned: false }],
        delegationPathway: ['Matrix'],
      }),
    );
    expect(proposed.recipients).toEqual([{ recipientUserId: USER.toLowerCase(), recipientPositionId: null }]);
    expect(groups).toEqual([{ groupId: 'g1', tenantGroupTypeId: 't1' }, { groupId: 'g2', tenantGroupTypeId: null }]);
    expect(proposed.groupIds).toEqual(['g1', 'g2']);
    // The last mention of a document says whether it is pinned; the first says where it goes.
    expect(documents).toEqual([{ documentId: 'd1', isPinned: false }, { documentId: 'd2', isPinned: false }]);
    expect(proposed.pathways).toEqual(['Matrix']);
    expect(proposed.expirationDate).toBeNull();
    expect(proposed.authorities).toEqual([
      expect.objectContaining({ authorityTypeId: TYPE.toLowerCase(), authorityLimitValue: '1000', authorityLimitValueUnit: 'USD', redelegable: false, redelegationLimitValue: null, redelegationLimitValueUnit: null }),
    ]);
  });

  it('an expiration not after the effective date is a 400 on expirationDate; isNoExpiration drops it', () => {
    expect(refused(() => proposedDelegation(create({ effectiveDate: '2030-01-02T00:00:00.000Z', expirationDate: '2030-01-02T00:00:00.000Z' })))).toEqual(['expirationDate']);
    expect(proposedDelegation(create({ effectiveDate: '2030-01-02T00:00:00.000Z', expirationDate: '2030-01-02T00:00:00.001Z' })).proposed.expirationDate).toEqual(new Date('2030-01-02T00:00:00.001Z'));
    expect(proposedDelegation(create({ expirationDate: '2000-01-01T00:00:00.000Z', isNoExpiration: true })).proposed.expirationDate).toBeNull();
  });

  it('the limits are refused before the recipients, the recipients before the dates', () => {
    const everything = create({ delegationAuthorities: [usd('1000', { authorityLimitValueUnit: null })], recipientType: 'POSITION_ONLY', effectiveDate: '2030-01-02T00:00:00.000Z', expirationDate: '2030-01-01T00:00:00.000Z' });
    expect(refused(() => proposedDelegation(everything))).toEqual(['delegationAuthorities.0.authorityLimitValueUnit']);
    expect(refused(() => proposedDelegation({ ...everything, delegationAuthorities: [usd('1000')] }))).toEqual(['delegationRecipients.0.recipientPositionId', 'delegationRecipients.0.recipientUserId']);
  });

  it("a redelegation cap is a decimal or Unlimited; its unit defaults to the limit's own only when a cap is given", () => {
    expect(refused(() => delegationLimits([usd('10', { redelegationLimitValue: 'lots' })] as never))).toEqual(['delegationAuthorities.0.redelegationLimitValue']);
    expect(delegationLimits([usd('10', { redelegable: true, redelegationLimitValue: '5' })] as never)[0]).toMatchObject({ redelegable: true, redelegationLimitValue: '5', redelegationLimitValueUnit: 'USD' });
    expect(delegationLimits([usd('10', { redelegationLimitValue: 'Unlimited', redelegationLimitValueUnit: 'EUR' })] as never)[0]).toMatchObject({ redelegationLimitValueUnit: 'EUR' });
    expect(delegationLimits([usd('10')] as never)[0].redelegationLimitValueUnit).toBeNull();
  });

  it('uniqueGroups and uniqueDocuments keep the first place of each id', () => {
    expect(uniqueGroups([{ groupId: 'B' }, { groupId: 'a' }, { groupId: 'b', tenantGroupTypeId: 'x' }])).toEqual([{ groupId: 'b', tenantGroupTypeId: null }, { groupId: 'a', tenantGroupTypeId: null }]);
    expect(uniqueDocuments([])).toEqual([]);
  });
});

describe('a PATCH of a delegation read as the rules read it', () => {
  const row = { recipient_type: 'SPECIFIC_PERSONNEL', recipient_user_id: USER.toLowerCase(), recipient_position_id: null } as DelegationRuleRow;
  const current = { pathways: ['Matrix'], groupIds: ['g1'], authorities: [], effectiveDate: new Date('2030-01-01T00:00:00.000Z'), expirationDate: new Date('2031-01-01T00:00:00.000Z') };

  it('the recipient stays unless one is sent; the same person in other case is no change', () => {
    expect(recipientChange({} as UpdateDelegationDto, row)).toEqual({ recipientType: 'SPECIFIC_PERSONNEL', recipient: { recipientUserId: USER.toLowerCase(), recipientPositionId: null }, changed: false });
    expect(recipientChange({ delegationRecipients: [{ recipientUserId: USER }] } as UpdateDelegationDto, row).changed).toBe(false);
    const moved = recipientChange({ recipientType: 'PERSONNEL_IN_POSITION', delegationRecipients: [{ recipientUserId: USER, recipientPositionId: POS }] } as UpdateDelegationDto, row);
    expect(moved).toMatchObject({ recipientType: 'PERSONNEL_IN_POSITION', changed: true });
    expect(refused(() => recipientChange({ recipientType: 'POSITION_ONLY', delegationRecipients: [{ recipientUserId: USER }] } as UpdateDelegationDto, row))).toEqual([
      'delegationRecipients.0.recipientPositionId',
      'delegationRecipients.0.recipientUserId',
    ]);
  });

  it('what it leaves out stays; what it names is what changes (and only that is checked)', () => {
    const to = recipientChange({} as UpdateDelegationDto, row);
    const same = proposedChange({} as UpdateDelegationDto, current, to);
    expect(same.proposed).toMatchObject({ pathways: ['Matrix'], groupIds: ['g1'], effectiveDate: current.effectiveDate, expirationDate: current.expirationDate });
    expect(same.groups).toBeNull();
    expect(same.changed).toEqual({ authority: false, pathway: false, groups: false, expiration: false, recipient: false });
    const narrowed = proposedChange({ delegationPathway: ['Direct Line'], delegationGroups: [{ groupId: 'G2' }], expirationDate: null } as UpdateDelegationDto, current, to);
    expect(narrowed.proposed).toMatchObject({ pathways: ['Direct Line'], groupIds: ['g2'], expirationDate: null });
    expect(narrowed.changed).toEqual({ authority: false, pathway: true, groups: true, expiration: true, recipient: false });
    expect(proposedChange({ isNoExpiration: true, expirationDate: '2032-01-01T00:00:00.000Z' } as UpdateDelegationDto, current, to).proposed.expirationDate).toBeNull();
  });
});

describe('a check-cascading-updates proposal', () => {
  const decision: DecisionScope = { status: 'PUBLISHED', delegable: true, pathways: ['Matrix', 'Functional'], groupIds: ['g1'], authorities: [] };
  const root = { id: 'r', delegation_pathway: ['Matrix'], group_ids: ['g1'], delegation_authorities: [], effective_date: new Date(0), expiration_date: null } as unknown as DelegationRuleRow;

  it("proposes the decision's pathways only when no delegation is named; the named one takes them instead", () => {
    const onDecision = proposedCascade({ decisionId: 'd', updatedPathwayOptions: ['Matrix'] } as CheckCascadingUpdatesDto, decision, null);
    expect(onDecision.decision.pathways).toEqual(['Matrix']);
    expect(onDecision.changed).toBeNull();
    const onParent = proposedCascade({ parentDelegationId: 'r', updatedPathwayOptions: ['Functional'] } as CheckCascadingUpdatesDto, decision, root);
    expect(onParent.decision.pathways).toEqual(['Matrix', 'Functional']);
    expect(onParent.changed?.proposed.pathways).toEqual(['Functional']);
  });

  it('leaves out groups and authorities sent as isInvalid; ids in lower case; Authorized holds no value', () => {
    const dto = {
      parentDelegationId: 'r',
      updatedDelegationGroups: [{ groupId: 'G1' }, { groupId: 'G9', isInvalid: true }],
      updatedDelegationAuthorities: [
        { authorityTypeId: TYPE, authorityLimitValueType: 'Authorized', authorityLimitValue: '5' },
        { authorityTypeId: TYPE, authorityLimitValueType: 'Number', authorityLimitOperator: '<', authorityLimitValue: '5', isInvalid: true },
      ],
      updatedDecisionGroups: [{ groupId: 'G2' }],
    } as CheckCascadingUpdatesDto;
    const p = proposedCascade(dto, decision, root);
    expect(p.changed?.proposed.groupIds).toEqual(['g1']);
    expect(p.changed?.proposed.authorities).toEqual([
      { authorityTypeId: TYPE.toLowerCase(), authorityLimitValueType: 'Authorized', authorityLimitOperator: null, authorityLimitValue: null, authorityLimitValueUnit: null, redelegable: false, redelegationLimitValue: null, redelegationLimitValueUnit: null, isLimitOverridden: false },
    ]);
    expect(p.decision.groupIds).toEqual(['g2']);
  });
});

describe('planIssue (may the caller issue this, and how)', () => {
  // boss holds everything; rep reports to boss; mgr is someone else.
  const org: OrgView = {
    isActiveUser: (u) => ['boss', 'rep', 'mgr'].includes(u),
    managerOf: (u) => (u === 'rep' ? 'boss' : null),
    positionsOf: (u) => (u === 'boss' ? ['pos-boss'] : []),
    holdersOf: (p) => (p === 'pos-boss' ? ['boss'] : []),
    isActivePosition: (p) => p === 'pos-boss',
    groupsOfUser: () => [],
    groupsOfPosition: () => [],
    parentGroupsOf: () => [],
    isLiveGroup: () => true,
  };
  const limit = { authorityTypeId: 't', authorityLimitValueType: 'Number' as const, authorityLimitOperator: '<=' as const, authorityLimitValue: '10', authorityLimitValueUnit: null };
  const decision = { id: 'dec', name: 'Capex', status: 'PUBLISHED' as const, delegable: true, pathways: ['Direct Line'], groupIds: [], authorities: [limit] };
  const proposed: ProposedDelegation = {
    recipientType: 'SPECIFIC_PERSONNEL',
    recipients: [{ recipientUserId: 'rep', recipientPositionId: null }],
    pathways: ['Direct Line'],
    groupIds: [],
    authorities: [{ ...limit, redelegable: false, redelegationLimitValue: null, redelegationLimitValueUnit: null }],
    effectiveDate: new Date('2030-01-01T00:00:00.000Z'),
    expirationDate: null,
  };
  const parent = {
    id: 'p', decision_id: 'dec', parent_delegation_id: null, depth: 0, status: 'ISSUED' as const, effective_date: new Date('2029-01-01T00:00:00.000Z'), expiration_date: null, is_invalid: false,
    issuer_type: 'ROOT_AUTHORITY' as const, issuer_user_id: 'admin', issuer_position_id: null, recipient_type: 'PERSONNEL_IN_POSITION' as const, recipient_user_id: 'boss', recipient_position_id: 'pos-boss',
    delegation_pathway: ['Direct Line'], group_ids: [], delegation_authorities: [{ ...limit, redelegable: true, redelegationLimitValue: null, redelegationLimitValueUnit: null }], accepted_date: null, pending_stage: null,
  };
  const facts = (f: Partial<IssueFacts> = {}): IssueFacts => ({ decision, parent: null, org, settings: null, ...f });
  const derived = { issuerType: null, issuerUserId: null, issuerPositionId: null, isRootDelegation: null };
  const ask = (r: Partial<Parameters<typeof planIssue>[1]> = {}) => ({ sent: derived, issue: false, proposed, ...r });
  const sent = (x: Partial<typeof derived> | Record<string, string | boolean>) => ask({ sent: { ...derived, ...x } });
  const root = { userId: 'boss', keys: new Set(['create:root_delegations']) };
  const status = (f: () => unknown): number => {
    try {
      f();
    } catch (e) {
      return (e as AppError).getStatus();
    }
    return 0;
  };
  const NOW = new Date('2030-01-01T00:00:00.000Z');

  it('a root delegation: ROOT_AUTHORITY, a DRAFT unless issued, then where the tenant settings take it', () => {
    expect(planIssue(facts(), ask(), root, NOW)).toMatchObject({ issuerType: 'ROOT_AUTHORITY', issuerPositionId: null, parent: null, status: 'DRAFT', stage: null });
    expect(planIssue(facts({ settings: { approvalRequired: false, acceptanceRequired: false } }), ask({ issue: true }), root, NOW)).toMatchObject({ status: 'ISSUED', stage: null });
    expect(planIssue(facts({ settings: { approvalRequired: true, acceptanceRequired: true } }), ask({ issue: true }), root, NOW)).toMatchObject({ status: 'PENDING', stage: 'APPROVAL' });
  });

  it('a redelegation is issued from the holding the issuer has: the position the parent names', () => {
    expect(planIssue(facts({ parent }), ask(), { userId: 'boss', keys: new Set() }, NOW)).toMatchObject({ issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: 'pos-boss', parent });
  });

  it('answers in the order a request hears: a parent of another decision, then the rules', () => {
    // A parent of another decision: 400, before any rule (here the caller does not even hold it).
    expect(() => planIssue(facts({ parent: { ...parent, decision_id: 'other' } }), ask(), { userId: 'mgr', keys: new Set() }, NOW)).toThrow('parentDelegationId: the parent delegates another decision');
    // Not the parent's holder: 403, whatever the caller's keys.
    expect(status(() => planIssue(facts({ parent }), ask(), { userId: 'mgr', keys: new Set(['create:root_delegations', 'approve:delegations']) }, NOW))).toBe(403);
    // A root delegation without create:root_delegations: 403.
    expect(status(() => planIssue(facts(), ask(), { userId: 'boss', keys: new Set() }, NOW))).toBe(403);
    // Out of bounds: 400.
    expect(status(() => planIssue(facts(), ask({ proposed: { ...proposed, pathways: ['Matrix'] } }), root, NOW))).toBe(400);
  });

  it("the product's issuer fields, when they say what is so, issue as derived", () => {
    expect(planIssue(facts(), sent({ issuerType: 'ROOT_AUTHORITY', issuerUserId: 'boss', isRootDelegation: true }), root, NOW)).toMatchObject({ issuerType: 'ROOT_AUTHORITY', issuerPositionId: null });
    expect(planIssue(facts(), sent({ issuerType: 'ROOT_AUTHORITY', issuerPositionId: 'pos-boss' }), root, NOW)).toMatchObject({ issuerType: 'ROOT_AUTHORITY', issuerPositionId: 'pos-boss' });
    const boss = { userId: 'boss', keys: new Set<string>() };
    expect(planIssue(facts({ parent }), sent({ issuerType: 'PERSONNEL_IN_POSITION', issuerUserId: 'boss', issuerPositionId: 'pos-boss', isRootDelegation: false }), boss, NOW)).toMatchObject({ issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: 'pos-boss' });
  });

  it('what is not so is refused naming the field: another issuer 403, a root sent with a parent (or a redelegation without one) 400, another holding 400', () => {
    const fields = (f: () => unknown): string[] => {
      try {
        f();
      } catch (e) {
        return ((e as AppError).errors ?? []).map((x) => x.field);
      }
      return [];
    };
    const boss = { userId: 'boss', keys: new Set(['create:root_delegations']) };
    expect(status(() => planIssue(facts(), sent({ issuerUserId: 'rep' }), root, NOW))).toBe(403);
    expect(fields(() => planIssue(facts(), sent({ issuerUserId: 'rep' }), root, NOW))).toEqual(['issuerUserId']);
    expect(status(() => planIssue(facts({ parent }), sent({ issuerType: 'ROOT_AUTHORITY' }), boss, NOW))).toBe(400);
    expect(fields(() => planIssue(facts({ parent }), sent({ issuerType: 'ROOT_AUTHORITY' }), boss, NOW))).toEqual(['issuerType', 'parentDelegationId']);
    expect(fields(() => planIssue(facts({ parent }), sent({ isRootDelegation: true }), boss, NOW))).toEqual(['isRootDelegation']);
    expect(fields(() => planIssue(facts(), sent({ issuerType: 'SPECIFIC_PERSONNEL' }), root, NOW))).toEqual(['issuerType']);
    expect(fields(() => planIssue(facts(), sent({ isRootDelegation: false }), root, NOW))).toEqual(['isRootDelegation']);
    expect(fields(() => planIssue(facts(), sent({ issuerPositionId: 'pos-other' }), root, NOW))).toEqual(['issuerPositionId']);
    expect(status(() => planIssue(facts({ parent }), sent({ issuerType: 'POSITION_ONLY' }), boss, NOW))).toBe(400);
    expect(status(() => planIssue(facts({ parent }), sent({ issuerPositionId: 'pos-other' }), boss, NOW))).toBe(400);
    // ROOT_AUTHORITY without create:root_delegations: 403.
    expect(status(() => planIssue(facts(), sent({ issuerType: 'ROOT_AUTHORITY' }), { userId: 'boss', keys: new Set() }, NOW))).toBe(403);
  });
});
