import { actionDefaultId } from '@ddm/contracts';
import { PRIORITY_KEYS, STATUS_KEYS, priorityIdOf, priorityRank, statusIdOf, statusRank } from './configuration.rules';
import { unique } from './ids';
import { attestationCauseKey, attestationCauseOf } from './system-actions.rules';

const T = '0190f5c4-0000-7000-8000-0000000000aa';
const U1 = '0190f5c4-0000-7000-8000-000000000001';
const U2 = '0190f5c4-0000-7000-8000-000000000002';

describe('the configuration keys every folder speaks of', () => {
  it('a status ranks by its place, To Do first and Overdue last; a key that is no status ranks 0', () => {
    expect(STATUS_KEYS.map(statusRank)).toEqual([1, 2, 3, 4, 5]);
    expect(statusRank('TODO')).toBe(1);
    expect(statusRank('OVERDUE')).toBe(5);
    expect(statusRank('DONE')).toBe(0);
  });

  it('a priority ranks Low 1 to Critical 4; a key that is no priority ranks 0', () => {
    expect(PRIORITY_KEYS.map(priorityRank)).toEqual([1, 2, 3, 4]);
    expect(priorityRank('LOW')).toBeLessThan(priorityRank('MEDIUM'));
    expect(priorityRank('CRITICAL')).toBe(4);
    expect(priorityRank('URGENT')).toBe(0);
  });

  it("the ids of a tenant's default statuses and priorities derive from the tenant and the key", () => {
    expect(statusIdOf(T, 'TODO')).toBe(actionDefaultId(T, 'status', 'TODO'));
    expect(statusIdOf(T, 'TODO')).not.toBe(statusIdOf(T, 'COMPLETED'));
    expect(statusIdOf(T, 'TODO')).not.toBe(statusIdOf(U1, 'TODO'));
    expect(priorityIdOf(T, 'MEDIUM')).toBe(actionDefaultId(T, 'priority', 'MEDIUM'));
    expect(priorityIdOf(T.toUpperCase(), 'MEDIUM')).toBe(priorityIdOf(T, 'MEDIUM'));
  });
});

describe('system actions', () => {
  it("an Attestation action's cause names its campaign and delegation, and reads back", () => {
    const campaign = '0190f5c4-0000-7000-8000-0000000000c1';
    const key = attestationCauseKey(campaign.toUpperCase(), U1);
    expect(key).toBe(`attestation:${campaign}:${U1}`);
    expect(attestationCauseOf(key)).toEqual({ campaignId: campaign, delegationId: U1 });
    expect(attestationCauseOf(`delegation:${U1}:acceptance`)).toBeNull();
    expect(attestationCauseOf(null)).toBeNull();
  });

  it('ids: lower case, each once, in the order given', () => {
    expect(unique([U2, U1.toUpperCase(), U1, U2])).toEqual([U2, U1]);
    expect(unique([])).toEqual([]);
  });
});
