import { delegationChange, MAX_DELEGATION_GROUPS, MAX_DELEGATION_PATHWAYS } from './delegations.service';

const T = '0190a000-0000-7000-8000-000000000001';
const D = '0190a000-0000-7000-8000-0000000000d1';
const C = '0190a000-0000-7000-8000-0000000000c1';
const P = '0190a000-0000-7000-8000-0000000000a1';

const event = (over: Record<string, unknown> = {}) => ({
  tenantId: T,
  delegationId: D,
  decisionId: C,
  issuerType: 'POSITION_ONLY',
  issuerUserId: null,
  issuerPositionId: P,
  recipientType: 'PERSONNEL_IN_POSITION',
  recipientUserId: null,
  recipientPositionId: P.toUpperCase(),
  pathways: ['Matrix'],
  groupIds: [],
  ...over,
});

describe('delegationChange (reading evt.decision.delegation.* defensively)', () => {
  it('issued/updated/revoked give the row; ids lower case', () => {
    for (const verb of ['issued', 'updated', 'revoked']) {
      const c = delegationChange(`evt.decision.delegation.${verb}`, event());
      expect(c).toMatchObject({ verb, tenantId: T, delegationId: D, decisionId: C, issuerPositionId: P, recipientPositionId: P, pathways: ['Matrix'] });
    }
  });

  it('ignores unknown verbs, non-UUID ids and unknown types', () => {
    expect(delegationChange('evt.decision.delegation.approved', event())).toEqual({ ignored: expect.stringContaining('verb') });
    expect(delegationChange('evt.decision.delegation.issued', event({ delegationId: 'x' }))).toEqual({ ignored: 'delegationId is not a UUID' });
    expect(delegationChange('evt.decision.delegation.issued', event({ tenantId: 42 }))).toEqual({ ignored: 'tenantId is not a UUID' });
    expect(delegationChange('evt.decision.delegation.issued', event({ issuerType: 'KING' }))).toEqual({ ignored: 'unknown issuerType' });
    expect(delegationChange('evt.decision.delegation.issued', event({ recipientType: 'ROOT_AUTHORITY' }))).toEqual({ ignored: 'unknown recipientType' });
    expect(delegationChange('evt.decision.delegation.issued', null)).toEqual({ ignored: 'payload is not an object' });
  });

  it('optional ids that are not UUIDs become null; arrays are cleaned and capped', () => {
    const c = delegationChange(
      'evt.decision.delegation.issued',
      event({
        issuerUserId: 'robert',
        recipientPositionId: 7,
        pathways: [' Matrix ', 'Matrix', '', 5, 'x'.repeat(300), ...Array.from({ length: 100 }, (_, i) => `p${i}`)],
        groupIds: ['nope', ...Array.from({ length: 600 }, (_, i) => `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`)],
      }),
    );
    if ('ignored' in c) throw new Error(c.ignored);
    expect(c.issuerUserId).toBeNull();
    expect(c.recipientPositionId).toBeNull();
    expect(c.pathways).toHaveLength(MAX_DELEGATION_PATHWAYS);
    expect(c.pathways.slice(0, 2)).toEqual(['Matrix', 'x'.repeat(100)]);
    expect(c.groupIds).toHaveLength(MAX_DELEGATION_GROUPS);
    expect(delegationChange('evt.decision.delegation.issued', event({ pathways: 'Matrix', groupIds: null }))).toMatchObject({ pathways: [], groupIds: [] });
  });
});
