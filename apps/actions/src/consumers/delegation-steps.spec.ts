import { acceptanceAssignees, approvalAssignees, pendingStage, settledByDelegationStatus } from './delegation-steps.rules';

const T = '0190f5c4-0000-7000-8000-0000000000aa';
const U1 = '0190f5c4-0000-7000-8000-000000000001';
const U2 = '0190f5c4-0000-7000-8000-000000000002';

describe('delegation steps rules', () => {
  it('the stage of a pending delegation: approval first when required, acceptance after it, a repeat changes nothing', () => {
    expect(pendingStage(false, undefined, 1)).toBe('ACCEPTANCE');
    expect(pendingStage(true, undefined, 1)).toBe('APPROVAL');
    expect(pendingStage(true, 1, 1)).toBe('REPEAT');
    expect(pendingStage(true, 1, 2)).toBe('ACCEPTANCE');
    expect(pendingStage(true, 2, 1)).toBe('REPEAT'); // an older event, redelivered late
    expect(pendingStage(true, null, undefined)).toBe('ACCEPTANCE');
  });

  it('the stage the event names wins over the inference', () => {
    expect(pendingStage(false, undefined, 1, 'APPROVAL')).toBe('APPROVAL');
    expect(pendingStage(true, undefined, 1, 'ACCEPTANCE')).toBe('ACCEPTANCE');
    expect(pendingStage(true, 1, 1, 'APPROVAL')).toBe('REPEAT');
    expect(pendingStage(true, 1, 2, 'APPROVAL')).toBe('APPROVAL'); // approval asked again (e.g. after a change)
    expect(pendingStage(true, 1, 2, 'ACCEPTANCE')).toBe('ACCEPTANCE');
    expect(pendingStage(true, undefined, 1, null)).toBe('APPROVAL');
  });

  it('what a delegation status settles: answers complete, ends cancel', () => {
    expect(settledByDelegationStatus('ACCEPTED', false)).toEqual({ complete: ['DELEGATION_ACCEPTANCE', 'DELEGATION_APPROVAL'], cancel: [] });
    expect(settledByDelegationStatus('ISSUED', false)).toEqual({ complete: ['DELEGATION_APPROVAL'], cancel: [] });
    expect(settledByDelegationStatus('REJECTED', true).complete).toContain('DELEGATION_ACCEPTANCE');
    expect(settledByDelegationStatus('REVOKED', true)).toEqual({ complete: [], cancel: ['DELEGATION_ACCEPTANCE', 'DELEGATION_APPROVAL', 'DELEGATION_REQUEST', 'DECISION_ROLE_ACCEPTANCE', 'ATTESTATION'] });
    expect(settledByDelegationStatus('REJECTED', true).cancel).toContain('ATTESTATION');
    expect(settledByDelegationStatus('PENDING', false)).toEqual({ complete: [], cancel: [] });
    expect(settledByDelegationStatus('SUSPENDED', false)).toEqual({ complete: [], cancel: [] });
  });

  it('who acts: the recipient accepts; approvers are those named but the issuer and the recipient', () => {
    expect(acceptanceAssignees({ recipientUserId: U1, issuerUserId: U2, notifyUserIds: [U2, U1] })).toEqual([U1]);
    expect(acceptanceAssignees({ recipientUserId: null, issuerUserId: U2, notifyUserIds: [U2, U1, U1] })).toEqual([U1]);
    expect(approvalAssignees({ recipientUserId: U1, issuerUserId: U2, notifyUserIds: [U2, U1, T] })).toEqual([T]);
    expect(approvalAssignees({ recipientUserId: U1, issuerUserId: U2 })).toEqual([]);
  });
});
