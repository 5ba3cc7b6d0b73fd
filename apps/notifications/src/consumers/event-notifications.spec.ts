import { delegationEvent } from '@ddm/testing';
import { actionAssignedNotification, delegationNotification, documentNotification, jobNotification } from './event-notifications.rules';

const T = '0190c0de-0000-7000-8000-000000000001';
const ISSUER = '0190c0de-0000-7000-8000-000000000002';
const RECIPIENT = '0190c0de-0000-7000-8000-000000000003';
const POSITION = '0190c0de-0000-7000-8000-000000000004';

describe('which notification an event makes', () => {
  it('delegations: issued -> recipient (or the position); accepted -> issuer; revoked -> both; the natural key carries the version', () => {
    const e = delegationEvent(T, { issuerUserId: ISSUER, recipientUserId: RECIPIENT, version: 4, delegationDisplayId: '10001' });
    expect(delegationNotification('evt.decision.delegation.issued', e)).toMatchObject({
      templateKey: 'DELEGATION_ISSUED',
      userIds: [RECIPIENT],
      positionIds: [],
      placeholders: { delegationDisplayId: '10001' },
      path: `/delegations/${e.delegationId}`,
      sourceKey: `evt.decision.delegation.issued:${e.delegationId}:4`,
    });
    expect(delegationNotification('evt.decision.delegation.accepted', e)).toMatchObject({ userIds: [ISSUER] });
    expect(delegationNotification('evt.decision.delegation.revoked', e)).toMatchObject({ userIds: [RECIPIENT, ISSUER] });
    const toPosition = delegationEvent(T, { issuerUserId: ISSUER, recipientType: 'POSITION_ONLY', recipientPositionId: POSITION });
    expect(delegationNotification('evt.decision.delegation.issued', toPosition)).toMatchObject({ userIds: [], positionIds: [POSITION], placeholders: { delegationDisplayId: toPosition.delegationId } });
    expect(delegationNotification('evt.decision.delegation.pending', { ...e, pendingStage: 'APPROVAL' })).toBeNull();
    expect(delegationNotification('evt.decision.delegation.pending', { ...e, pendingStage: 'ACCEPTANCE' })).toMatchObject({ templateKey: 'DELEGATION_PENDING_ACCEPTANCE', userIds: [RECIPIENT] });
    const fromRoot = delegationEvent(T, { issuerType: 'ROOT_AUTHORITY', recipientUserId: RECIPIENT });
    expect(delegationNotification('evt.decision.delegation.accepted', fromRoot)).toMatchObject({ userIds: [], positionIds: [] });
  });

  it('actions, documents and jobs: the people each names, once per assignment, request and job', () => {
    const action = { id: 'a', actionId: '10000', actionName: 'N', ownerId: ISSUER, assigneeIds: [RECIPIENT], actionStatusId: 's', statusKey: 'TODO', dueDate: null, isSystemGenerated: false, systemKind: null, decisionId: null, delegationId: null, documentId: null, isDeleted: false, version: 3 };
    expect(actionAssignedNotification({ tenantId: T, action, changedBy: null, newAssigneeIds: [] })).toBeNull();
    expect(actionAssignedNotification({ tenantId: T, action, changedBy: null, newAssigneeIds: [RECIPIENT, RECIPIENT] })).toMatchObject({ userIds: [RECIPIENT], sourceKey: 'evt.actions.action.assigned:a:3' });
    const oversight = { tenantId: T, documentId: 'd', documentDisplayId: '10000', documentName: 'D', cycleId: 'c', ownerId: null, assigneeUserIds: [RECIPIENT], actedById: null, comment: null, status: 'REVIEW_PENDING' };
    expect(documentNotification('evt.document.oversight.approval-requested', oversight)).toMatchObject({ templateKey: 'DOCUMENT_APPROVAL_REQUESTED', sourceKey: 'evt.document.oversight.approval-requested:c' });
    const job = { tenantId: T, jobId: 'j', kind: 'bulk-duplicate', status: 'FAILED', total: 2, succeeded: 0, failed: 2, requestedBy: ISSUER };
    expect(jobNotification(job)).toMatchObject({ userIds: [ISSUER], placeholders: { total: '2', failed: '2' }, sourceKey: 'job.completed:j' });
    expect(jobNotification({ ...job, requestedBy: null })).toBeNull();
  });
});
