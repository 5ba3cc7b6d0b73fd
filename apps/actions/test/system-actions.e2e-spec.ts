import { DelegationEvent, actionDefaultId } from '@ddm/contracts';
import { delegationEvent, expectErrorBody, publishEvent, startHarness, until } from '@ddm/testing';
import { randomUUID } from 'node:crypto';
import { actionsApp, ActionsHarness } from './fixtures/actions-app';
import { announceDecision } from './fixtures/announcements';

const PATH = '/actions/v1/actions';

interface ActionRow {
  id: string;
  system_kind: string;
  status_key: string;
  owner_id: string | null;
  assignees: string[];
  action_name: string;
}

/**
 * The actions the system opens and closes: published events of the decision and document areas
 * (as their relays would publish them) open one action per cause, however often they arrive, and
 * their answers settle it.
 */
describe('system actions (e2e: events of other areas open and close actions)', () => {
  let h: ActionsHarness;
  let issuer: string;
  let recipient: string;
  let approver: string;
  const actionsOf = (where: string, param: string) =>
    h.db.query<ActionRow>(
      `SELECT a.id, a.system_kind, a.status_key, a.owner_id, a.action_name,
              ARRAY(SELECT aa.assignee_id FROM actions.action_assignees aa WHERE aa.action_id = a.id ORDER BY aa.position)::text[] AS assignees
         FROM actions.actions a WHERE ${where} = $1 ORDER BY a.created_on, a.id`,
      [param],
    );
  const eventCount = (id: string, subject: string) =>
    h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM actions.outbox WHERE subject = $1 AND payload->'action'->>'id' = $2`, [subject, id]).then((r) => r[0].n);
  /** Waits until the consumer has taken every message published so far (a later marker event's action exists). */
  const drained = async () => {
    const requestId = randomUUID();
    await publishEvent(h.svc, 'evt.decision.delegation.requested', {
      tenantId: h.demo.id, requestId, delegationId: randomUUID(), delegationDisplayId: '1', decisionId: randomUUID(), actionName: 'marker',
      actionOwnerId: issuer, actionAssigneeIds: [], requestedById: issuer,
    });
    await until(async () => (await actionsOf('a.cause_key', `delegation-request:${requestId}`)).length === 1, 'the marker action');
  };
  /** The same for the document oversight consumer. */
  const documentsDrained = async () => {
    const documentId = randomUUID();
    await publishEvent(h.svc, 'evt.document.oversight.review-requested', {
      tenantId: h.demo.id, documentId, documentDisplayId: '1', documentName: 'marker', cycleId: randomUUID(), ownerId: issuer, assigneeUserIds: [],
      actedById: null, comment: null, status: 'REVIEW_PENDING',
    });
    await until(async () => (await actionsOf('a.document_id', documentId)).length === 1, 'the marker document action');
  };
  const pending = (e: DelegationEvent) => publishEvent(h.svc, 'evt.decision.delegation.pending', e);

  beforeAll(async () => {
    h = await startHarness(actionsApp);
    issuer = h.users.get('manager@demo.test')!;
    recipient = h.users.get('user@demo.test')!;
    approver = h.users.get('admin@demo.test')!;
  });
  afterAll(() => h?.close());

  it('a pending delegation opens one acceptance action for the recipient, owned by the issuer, even when delivered twice; accepted completes it', async () => {
    const e = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientUserId: recipient, status: 'PENDING', version: 2, delegationDisplayId: '10005', notifyUserIds: [issuer, recipient] });
    await pending(e);
    await pending(e); // the same event again, as another message
    await drained();
    const opened = await actionsOf('a.delegation_id', e.delegationId);
    expect(opened).toEqual([{ id: expect.any(String), system_kind: 'DELEGATION_ACCEPTANCE', status_key: 'TODO', owner_id: issuer, assignees: [recipient], action_name: 'Accept delegation 10005' }]);
    const [action] = opened;
    const view = await h.svc.http.get(`${PATH}/${action.id}`, { token: h.tokens.user });
    expect(view.body.data).toMatchObject({ isSystemGenerated: true, createdBy: 'System', delegationId: e.delegationId, ownerId: issuer, actionType: { type: 'TASK' } });
    expect(await eventCount(action.id, 'evt.actions.action.created')).toBe(1);
    expect(await eventCount(action.id, 'evt.actions.action.assigned')).toBe(1);

    // The system's cause fields are not the user's to change, nor is the action theirs to delete.
    const moved = await h.svc.http.patch(`${PATH}/${action.id}`, { token: h.tokens.admin, body: { delegationId: null } });
    expectErrorBody(moved, 409);
    expect(moved.body.message).toContain('delegationId');
    expect((await h.svc.http.patch(`${PATH}/${action.id}`, { token: h.tokens.admin, body: { description: 'Please look today' } })).status).toBe(200);
    expectErrorBody(await h.svc.http.delete(`${PATH}/${action.id}`, { token: h.tokens.admin }), 409);

    await publishEvent(h.svc, 'evt.decision.delegation.accepted', { ...e, status: 'ACCEPTED', version: 3 });
    await until(async () => (await actionsOf('a.id', action.id))[0].status_key === 'COMPLETED', 'the acceptance action completed');
    expect(await eventCount(action.id, 'evt.actions.action.completed')).toBe(1);
    const done = await h.svc.http.get(`${PATH}/${action.id}`, { token: h.tokens.user });
    expect(done.body.data.assignees[0]).toMatchObject({ actionStatusName: 'Completed', actionTakenDate: expect.any(String) });
  });

  it('with approval required: the first pending opens the approval action (approvers named), the next one completes it and opens acceptance; revoked cancels', async () => {
    await publishEvent(h.svc, 'evt.auth.tenant.settings-updated', { tenantId: h.demo.id, delegationAcceptanceRequired: true, delegationApprovalRequired: true, baseCurrency: 'USD', version: 7 });
    await until(async () => (await h.db.query(`SELECT 1 FROM actions.tenant_settings_projection WHERE id = $1 AND approval_required`, [h.demo.id])).length > 0, 'the settings');
    const e = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientUserId: recipient, status: 'PENDING', version: 1, delegationDisplayId: '10006', notifyUserIds: [issuer, recipient, approver] });
    await pending(e);
    await pending(e);
    await drained();
    let opened = await actionsOf('a.delegation_id', e.delegationId);
    expect(opened.map((a) => [a.system_kind, a.status_key, a.assignees])).toEqual([['DELEGATION_APPROVAL', 'TODO', [approver]]]);

    await pending({ ...e, version: 2, notifyUserIds: [issuer, recipient] }); // approved: now waiting for the recipient
    await drained();
    opened = await actionsOf('a.delegation_id', e.delegationId);
    expect(opened.map((a) => [a.system_kind, a.status_key, a.assignees])).toEqual([
      ['DELEGATION_APPROVAL', 'COMPLETED', [approver]],
      ['DELEGATION_ACCEPTANCE', 'TODO', [recipient]],
    ]);

    await publishEvent(h.svc, 'evt.decision.delegation.revoked', { ...e, status: 'REVOKED', version: 3 });
    await until(async () => (await actionsOf('a.delegation_id', e.delegationId))[1].status_key === 'CANCELED', 'the acceptance action canceled');
    expect((await actionsOf('a.delegation_id', e.delegationId))[0].status_key).toBe('COMPLETED');
  });

  it('a role set on a delegation opens one Decision Role Acceptance action per assignment for its designees; a new assignment or an inactive role cancels the earlier one; revoking the delegation cancels it', async () => {
    const e = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientUserId: recipient, status: 'ISSUED', version: 1, delegationDisplayId: '10011' });
    const roleId = randomUUID();
    const assignment = (assignmentId: string, designeeUserIds: string[], roleStatus = 'ACTIVE') => ({
      tenantId: h.demo.id, assignmentId, delegationId: e.delegationId, delegationDisplayId: '10011', decisionId: e.decisionId, roleId, roleName: 'Informed',
      roleStatus, designeeUserIds, issuerUserId: issuer,
    });
    const first = randomUUID();
    await publishEvent(h.svc, 'evt.decision.delegation.role-assigned', assignment(first, [approver]));
    await publishEvent(h.svc, 'evt.decision.delegation.role-assigned', assignment(first, [approver]));
    await drained();
    expect((await actionsOf('a.delegation_id', e.delegationId)).map((a) => [a.system_kind, a.status_key, a.owner_id, a.assignees, a.action_name])).toEqual([
      ['DECISION_ROLE_ACCEPTANCE', 'TODO', issuer, [approver], 'Accept the role Informed on delegation 10011'],
    ]);
    await publishEvent(h.svc, 'evt.decision.delegation.role-assigned', assignment(randomUUID(), [recipient]));
    await drained();
    expect((await actionsOf('a.delegation_id', e.delegationId)).map((a) => [a.status_key, a.assignees])).toEqual([
      ['CANCELED', [approver]],
      ['TODO', [recipient]],
    ]);
    await publishEvent(h.svc, 'evt.decision.delegation.role-assigned', assignment(randomUUID(), [recipient], 'INACTIVE'));
    await drained();
    expect((await actionsOf('a.delegation_id', e.delegationId)).map((a) => a.status_key)).toEqual(['CANCELED', 'CANCELED']);
    const again = randomUUID();
    await publishEvent(h.svc, 'evt.decision.delegation.role-assigned', assignment(again, [recipient]));
    await publishEvent(h.svc, 'evt.decision.delegation.revoked', { ...e, status: 'REVOKED', version: 2 });
    await until(async () => (await actionsOf('a.delegation_id', e.delegationId)).map((a) => a.status_key).join() === 'CANCELED,CANCELED,CANCELED', 'the role acceptance canceled with the delegation');
  });

  it('a delegation request opens the holder’s Delegation Request action once per requestId; validate-action finds it for the requester only', async () => {
    const decisionId = await announceDecision(h, h.demo.id, '10088');
    const e = delegationEvent(h.demo.id, { decisionId, issuerUserId: issuer, recipientUserId: recipient, status: 'ACCEPTED', version: 1, delegationDisplayId: '10010' });
    await publishEvent(h.svc, 'evt.decision.delegation.issued', e);
    await until(async () => (await h.db.query(`SELECT 1 FROM actions.delegation_projection WHERE id = $1`, [e.delegationId])).length > 0, 'the delegation');

    const validate = (body: object, token = h.tokens.user) => h.svc.http.patch(`${PATH}/validate-action`, { token, body: { tenantId: h.demo.id, ...body } });
    expect((await validate({ delegationId: e.delegationId })).body.data).toEqual({ actionName: null, isExist: false, userId: null });

    const request = {
      tenantId: h.demo.id, requestId: randomUUID(), delegationId: e.delegationId, delegationDisplayId: '10010', decisionId,
      actionName: 'Please redelegate purchase approvals', actionOwnerId: recipient, actionAssigneeIds: [recipient], requestedById: recipient,
    };
    await publishEvent(h.svc, 'evt.decision.delegation.requested', request);
    await publishEvent(h.svc, 'evt.decision.delegation.requested', request);
    await drained();
    const opened = await actionsOf('a.delegation_id', e.delegationId);
    expect(opened.map((a) => [a.system_kind, a.action_name, a.assignees])).toEqual([['DELEGATION_REQUEST', 'Please redelegate purchase approvals', [recipient]]]);

    const found = await validate({ delegationId: e.delegationId });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ statusCode: 200, data: { actionName: 'Please redelegate purchase approvals', isExist: true, userId: recipient } });
    expect((await validate({ decisionId })).body.data.isExist).toBe(true);
    expect((await validate({ delegationId: e.delegationId }, h.tokens.admin)).body.data.isExist).toBe(false); // the admin did not ask
    expectErrorBody(await validate({ delegationId: randomUUID() }), 404);
    expectErrorBody(await validate({}), 400);
    expectErrorBody(await h.svc.http.patch(`${PATH}/validate-action`, { token: h.tokens.user, body: { delegationId: e.delegationId } }), 400);
    expectErrorBody(await h.svc.http.patch(`${PATH}/validate-action`, { token: h.tokens.user, body: { tenantId: h.other.id, delegationId: e.delegationId } }), 403);
    // Another tenant's delegation is a 404 for this tenant.
    const foreign = delegationEvent(h.other.id, { status: 'ISSUED', version: 1 });
    await publishEvent(h.svc, 'evt.decision.delegation.issued', foreign);
    await until(async () => (await h.db.query(`SELECT 1 FROM actions.delegation_projection WHERE id = $1`, [foreign.delegationId])).length > 0, 'the foreign delegation');
    expectErrorBody(await validate({ delegationId: foreign.delegationId }), 404);
  });

  it('document review and approval: one action per cycle for the people named, owned by the document owner; the answer completes it', async () => {
    const documentId = randomUUID();
    const cycleId = randomUUID();
    const oversight = (status: string, extra: object = {}) => ({
      tenantId: h.demo.id, documentId, documentDisplayId: '10003', documentName: 'Travel policy', cycleId, ownerId: issuer, assigneeUserIds: [approver, recipient],
      actedById: null, comment: null, status, ...extra,
    });
    await publishEvent(h.svc, 'evt.document.oversight.review-requested', oversight('REVIEW_PENDING'));
    await publishEvent(h.svc, 'evt.document.oversight.review-requested', oversight('REVIEW_PENDING'));
    await documentsDrained();
    let opened = await actionsOf('a.document_id', documentId);
    expect(opened.map((a) => [a.system_kind, a.status_key, a.owner_id, a.assignees, a.action_name])).toEqual([
      ['DOCUMENT_REVIEW', 'TODO', issuer, [approver, recipient], 'Review document Travel policy'],
    ]);
    await publishEvent(h.svc, 'evt.document.oversight.reviewed', oversight('REVIEWED', { actedById: approver }));
    const approvalCycle = randomUUID();
    await publishEvent(h.svc, 'evt.document.oversight.approval-requested', oversight('APPROVAL_PENDING', { cycleId: approvalCycle, assigneeUserIds: [approver] }));
    await documentsDrained();
    opened = await actionsOf('a.document_id', documentId);
    expect(opened.map((a) => [a.system_kind, a.status_key, a.assignees])).toEqual([
      ['DOCUMENT_REVIEW', 'COMPLETED', [approver, recipient]],
      ['DOCUMENT_APPROVAL', 'TODO', [approver]],
    ]);
    expect(opened[1].assignees).toEqual([approver]);
    const view = await h.svc.http.get(`${PATH}/${opened[1].id}`, { token: h.tokens.admin });
    expect(view.body.data).toMatchObject({ actionType: { id: actionDefaultId(h.demo.id, 'type', 'APPROVAL') }, isSystemGenerated: true });
    await publishEvent(h.svc, 'evt.document.oversight.rejected', oversight('REJECTED', { cycleId: approvalCycle, actedById: approver }));
    await until(async () => (await actionsOf('a.id', opened[1].id))[0].status_key === 'COMPLETED', 'the approval action completed');
    const listed = await h.svc.http.get(`${PATH}?documentIds=${documentId}&isSystemGenerated=true&sortBy=actionId`, { token: h.tokens.admin });
    expect(listed.body.data.total).toBe(2);

    // A new review cycle, then the document is deleted: its open review action is canceled, the settled ones stay.
    const third = randomUUID();
    await publishEvent(h.svc, 'evt.document.oversight.review-requested', oversight('REVIEW_PENDING', { cycleId: third }));
    await until(async () => (await actionsOf('a.document_id', documentId)).length === 3, 'the third cycle');
    await publishEvent(h.svc, 'evt.document.document.deleted', {
      tenantId: h.demo.id,
      document: {
        id: documentId, documentDisplayId: '10003', documentName: 'Travel policy', documentDescription: null, documentUrl: null, documentTypeName: null,
        documentIcon: null, documentFileType: null, documentStatus: 'DELETED', documentSharingType: 'TENANT', ownerId: issuer, isDeleted: true, version: 9,
      },
    });
    await until(async () => (await actionsOf('a.document_id', documentId))[2].status_key === 'CANCELED', 'the open review canceled');
    expect((await actionsOf('a.document_id', documentId)).map((a) => a.status_key)).toEqual(['COMPLETED', 'COMPLETED', 'CANCELED']);
  });

  it('a review request withdrawn unanswered (its reviewer replaced) cancels its action; the new request opens its own', async () => {
    const documentId = randomUUID();
    const first = randomUUID();
    const second = randomUUID();
    const oversight = (cycleId: string, status: string, assigneeUserIds: string[]) => ({
      tenantId: h.demo.id, documentId, documentDisplayId: '10004', documentName: 'Expense policy', cycleId, ownerId: issuer, assigneeUserIds, actedById: null, comment: null, status,
    });
    await publishEvent(h.svc, 'evt.document.oversight.review-requested', oversight(first, 'REVIEW_PENDING', [approver]));
    await publishEvent(h.svc, 'evt.document.oversight.withdrawn', oversight(first, 'WITHDRAWN', [approver]));
    await publishEvent(h.svc, 'evt.document.oversight.review-requested', oversight(second, 'REVIEW_PENDING', [recipient]));
    await until(async () => (await actionsOf('a.document_id', documentId)).length === 2, 'the second request');
    await documentsDrained();
    expect((await actionsOf('a.document_id', documentId)).map((a) => [a.status_key, a.assignees])).toEqual([
      ['CANCELED', [approver]],
      ['TODO', [recipient]],
    ]);
  });
});
