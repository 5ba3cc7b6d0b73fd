import { DELEGATION_ACTIONS, DELEGATION_STATUSES, DelegationAction, DelegationStatus, PendingStage } from './delegation.types';
import { MOVE_NOTICES, stateSubjectOf, statusMove, statusOnReassign } from './delegation.status';

describe('statusMove', () => {
  const neither = { approvalRequired: false, acceptanceRequired: false };
  const approval = { approvalRequired: true, acceptanceRequired: false };
  const acceptance = { approvalRequired: false, acceptanceRequired: true };
  const both = { approvalRequired: true, acceptanceRequired: true };
  const move = (from: DelegationStatus, stage: PendingStage | null, action: DelegationAction, settings = neither, wasAccepted = false) => statusMove(from, stage, action, settings, wasAccepted);

  it('issue: DRAFT to PENDING (APPROVAL), PENDING (ACCEPTANCE) or ISSUED, by the settings', () => {
    expect(move('DRAFT', null, 'issue', both)).toEqual({ to: 'PENDING', stage: 'APPROVAL' });
    expect(move('DRAFT', null, 'issue', approval)).toEqual({ to: 'PENDING', stage: 'APPROVAL' });
    expect(move('DRAFT', null, 'issue', acceptance)).toEqual({ to: 'PENDING', stage: 'ACCEPTANCE' });
    expect(move('DRAFT', null, 'issue', neither)).toEqual({ to: 'ISSUED', stage: null });
  });

  it('approve: PENDING (APPROVAL) to PENDING (ACCEPTANCE) when acceptance is required, else ISSUED; deny: to REJECTED', () => {
    expect(move('PENDING', 'APPROVAL', 'approve', both)).toEqual({ to: 'PENDING', stage: 'ACCEPTANCE' });
    expect(move('PENDING', 'APPROVAL', 'approve', approval)).toEqual({ to: 'ISSUED', stage: null });
    expect(move('PENDING', 'APPROVAL', 'deny', both)).toEqual({ to: 'REJECTED', stage: null });
  });

  it('accept and reject: PENDING (ACCEPTANCE) or ISSUED', () => {
    expect(move('PENDING', 'ACCEPTANCE', 'accept', acceptance)).toEqual({ to: 'ACCEPTED', stage: null });
    expect(move('ISSUED', null, 'accept')).toEqual({ to: 'ACCEPTED', stage: null });
    expect(move('PENDING', 'ACCEPTANCE', 'reject', acceptance)).toEqual({ to: 'REJECTED', stage: null });
    expect(move('ISSUED', null, 'reject')).toEqual({ to: 'REJECTED', stage: null });
  });

  it('suspend: ISSUED or ACCEPTED; resume: back to ACCEPTED if it had been accepted, else ISSUED', () => {
    expect(move('ISSUED', null, 'suspend')).toEqual({ to: 'SUSPENDED', stage: null });
    expect(move('ACCEPTED', null, 'suspend')).toEqual({ to: 'SUSPENDED', stage: null });
    expect(move('SUSPENDED', null, 'resume', neither, true)).toEqual({ to: 'ACCEPTED', stage: null });
    expect(move('SUSPENDED', null, 'resume', neither, false)).toEqual({ to: 'ISSUED', stage: null });
  });

  it('revoke: PENDING (either stage), ISSUED, ACCEPTED or SUSPENDED', () => {
    for (const [from, stage] of [['PENDING', 'APPROVAL'], ['PENDING', 'ACCEPTANCE'], ['ISSUED', null], ['ACCEPTED', null], ['SUSPENDED', null]] as const) {
      expect(move(from, stage, 'revoke')).toEqual({ to: 'REVOKED', stage: null });
    }
  });

  it('archive: DRAFT, REJECTED, REVOKED or EXPIRED', () => {
    for (const from of ['DRAFT', 'REJECTED', 'REVOKED', 'EXPIRED'] as const) expect(move(from, null, 'archive')).toEqual({ to: 'ARCHIVED', stage: null });
  });

  it('refuses a move from the wrong state with a problem naming both states', () => {
    expect(move('ISSUED', null, 'archive')).toEqual({ problem: 'A delegation cannot archive from ISSUED to ARCHIVED (archive applies only to a delegation in DRAFT, REJECTED, REVOKED or EXPIRED)' });
    expect(move('PENDING', 'ACCEPTANCE', 'approve', both)).toEqual({ problem: expect.stringMatching(/from PENDING \(ACCEPTANCE\) to PENDING \(ACCEPTANCE\).*PENDING \(APPROVAL\)/) });
    expect(move('PENDING', 'APPROVAL', 'accept', both)).toEqual({ problem: expect.stringMatching(/from PENDING \(APPROVAL\) to ACCEPTED/) });
    expect(move('PENDING', 'ACCEPTANCE', 'deny', both)).toEqual({ problem: expect.stringMatching(/from PENDING \(ACCEPTANCE\) to REJECTED/) });
    expect(move('ISSUED', null, 'issue')).toEqual({ problem: expect.stringMatching(/from ISSUED to ISSUED/) });
    expect(move('ACCEPTED', null, 'accept')).toEqual({ problem: expect.stringMatching(/from ACCEPTED to ACCEPTED/) });
    expect(move('ISSUED', null, 'resume')).toEqual({ problem: expect.stringMatching(/from ISSUED to ISSUED/) });
    expect(move('SUSPENDED', null, 'suspend')).toEqual({ problem: expect.stringMatching(/from SUSPENDED to SUSPENDED/) });
    expect(move('REVOKED', null, 'revoke')).toEqual({ problem: expect.stringMatching(/from REVOKED to REVOKED/) });
    expect(move('ARCHIVED', null, 'archive')).toEqual({ problem: expect.stringMatching(/from ARCHIVED to ARCHIVED/) });
    expect(move('DRAFT', null, 'revoke')).toEqual({ problem: expect.stringMatching(/from DRAFT to REVOKED/) });
    expect(move('ACCEPTED', null, 'reject')).toEqual({ problem: expect.stringMatching(/from ACCEPTED to REJECTED/) });
    expect(move('PENDING', null, 'approve')).toEqual({ problem: expect.stringMatching(/from PENDING to ISSUED/) });
  });

  it('allows exactly the moves of the table, from every state and stage', () => {
    const allowed = new Set([
      'DRAFT/issue',
      'PENDING (APPROVAL)/approve',
      'PENDING (APPROVAL)/deny',
      'PENDING (ACCEPTANCE)/accept',
      'ISSUED/accept',
      'PENDING (ACCEPTANCE)/reject',
      'ISSUED/reject',
      'ISSUED/suspend',
      'ACCEPTED/suspend',
      'SUSPENDED/resume',
      'PENDING (APPROVAL)/revoke',
      'PENDING (ACCEPTANCE)/revoke',
      'ISSUED/revoke',
      'ACCEPTED/revoke',
      'SUSPENDED/revoke',
      'DRAFT/archive',
      'REJECTED/archive',
      'REVOKED/archive',
      'EXPIRED/archive',
    ]);
    const states: [DelegationStatus, PendingStage | null][] = DELEGATION_STATUSES.flatMap((s): [DelegationStatus, PendingStage | null][] =>
      s === 'PENDING' ? [[s, 'APPROVAL'], [s, 'ACCEPTANCE']] : [[s, null]],
    );
    for (const [from, stage] of states) {
      for (const action of DELEGATION_ACTIONS) {
        const key = `${stage ? `${from} (${stage})` : from}/${action}`;
        const result = move(from, stage, action, both);
        expect([key, 'to' in result]).toEqual([key, allowed.has(key)]);
      }
    }
  });
});

describe('statusOnReassign', () => {
  it('an accepted delegation awaits the new recipient when the tenant requires acceptance, else is issued again', () => {
    expect(statusOnReassign('ACCEPTED', null, true)).toEqual({ status: 'PENDING', stage: 'ACCEPTANCE' });
    expect(statusOnReassign('ACCEPTED', null, false)).toEqual({ status: 'ISSUED', stage: null });
  });

  it('any other status stays', () => {
    for (const status of ['DRAFT', 'ISSUED', 'SUSPENDED'] as const) expect(statusOnReassign(status, null, true)).toEqual({ status, stage: null });
    expect(statusOnReassign('PENDING', 'ACCEPTANCE', true)).toEqual({ status: 'PENDING', stage: 'ACCEPTANCE' });
    expect(statusOnReassign('PENDING', 'APPROVAL', false)).toEqual({ status: 'PENDING', stage: 'APPROVAL' });
  });
});

describe('the events a change publishes', () => {
  it('a draft publishes nothing; a revoked delegation its revoked state; every other status its updated state', () => {
    expect(stateSubjectOf('DRAFT')).toBeNull();
    expect(stateSubjectOf('REVOKED')).toBe('evt.decision.delegation.revoked');
    for (const s of DELEGATION_STATUSES.filter((x) => x !== 'DRAFT' && x !== 'REVOKED')) expect(stateSubjectOf(s)).toBe('evt.decision.delegation.updated');
  });

  it('a move tells people when it reaches PENDING, ACCEPTED, REJECTED, SUSPENDED or EXPIRED, and only then', () => {
    expect(MOVE_NOTICES).toEqual({
      PENDING: 'evt.decision.delegation.pending',
      ACCEPTED: 'evt.decision.delegation.accepted',
      REJECTED: 'evt.decision.delegation.rejected',
      SUSPENDED: 'evt.decision.delegation.suspended',
      EXPIRED: 'evt.decision.delegation.expired',
    });
    for (const s of ['DRAFT', 'ISSUED', 'REVOKED', 'ARCHIVED', 'DELETED'] as const) expect(MOVE_NOTICES[s]).toBeUndefined();
  });
});
