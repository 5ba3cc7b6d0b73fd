import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { actionDefaultId } from '@ddm/contracts';
import { defaultConfiguration } from '../action-config/action-config.rules';
import {
  acceptanceAssignees,
  actionLink,
  allCompleted,
  approvalAssignees,
  attestationAnswerProblem,
  attestationCauseKey,
  attestationCauseOf,
  changedCauseFields,
  pendingStage,
  settledByDelegationStatus,
  statusByName,
} from './action.rules';
import { priorityRank, statusRank } from './action-writes';
import { BulkReassignDto, CreateActionDto, UpdateActionDto, ValidateActionDto } from './dto/action-change.dto';
import { ListActionsQuery } from './dto/list-actions.query';
import { StoredActionView, toActionPayload, toActionView } from './dto/action.response';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

const T = '0190f5c4-0000-7000-8000-0000000000aa';
const U1 = '0190f5c4-0000-7000-8000-000000000001';
const U2 = '0190f5c4-0000-7000-8000-000000000002';

describe('action rules', () => {
  it("a tenant's defaults: five statuses, four priorities, five types, with ids derived from the tenant", () => {
    const c = defaultConfiguration(T);
    expect(c.statuses.map((s) => s.name)).toEqual(['To Do', 'In Progress', 'Completed', 'Canceled', 'Overdue']);
    expect(c.priorities.map((p) => `${p.name}/${p.colorName}`)).toEqual(['Low/green', 'Medium/blue', 'High/orange', 'Critical/red']);
    expect(c.types.map((t) => t.name)).toEqual(['Meeting', 'Email', 'Review', 'Approval', 'Task']);
    expect(c.statuses[0].id).toBe(actionDefaultId(T, 'status', 'TODO'));
    expect(defaultConfiguration(U1).statuses[0].id).not.toBe(c.statuses[0].id);
    expect(actionDefaultId(T.toUpperCase(), 'type', 'TASK')).toBe(actionDefaultId(T, 'type', 'TASK'));
    expect(statusRank('TODO')).toBe(1);
    expect(statusRank('OVERDUE')).toBe(5);
    expect(priorityRank('LOW')).toBeLessThan(priorityRank('CRITICAL'));
  });

  it("a system action's cause fields: only those a change alters (case aside, null clears)", () => {
    const current = { decisionId: null, delegationId: U1, documentId: null, ownerId: U2 };
    expect(changedCauseFields(current, { delegationId: U1.toUpperCase(), ownerId: U2 })).toEqual([]);
    expect(changedCauseFields(current, { delegationId: null, decisionId: U1 })).toEqual(['decisionId', 'delegationId']);
    expect(changedCauseFields(current, {})).toEqual([]);
  });

  it('assignee statuses: by name, case-insensitive; the action completes when every assignee completed', () => {
    const statuses = [{ actionStatusName: 'To Do' }, { actionStatusName: 'Completed' }];
    expect(statusByName(statuses, ' completed ')).toBe(statuses[1]);
    expect(statusByName(statuses, 'Done')).toBeUndefined();
    expect(allCompleted(['COMPLETED', 'COMPLETED'])).toBe(true);
    expect(allCompleted(['COMPLETED', 'TODO'])).toBe(false);
    expect(allCompleted([])).toBe(false);
  });

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

  it("an Attestation action's cause names its campaign and delegation, and reads back", () => {
    const campaign = '0190f5c4-0000-7000-8000-0000000000c1';
    const key = attestationCauseKey(campaign.toUpperCase(), U1);
    expect(key).toBe(`attestation:${campaign}:${U1}`);
    expect(attestationCauseOf(key)).toEqual({ campaignId: campaign, delegationId: U1 });
    expect(attestationCauseOf(`delegation:${U1}:acceptance`)).toBeNull();
    expect(attestationCauseOf(null)).toBeNull();
  });

  it('an attestation is answered by an assignee of an open Attestation action before its due date', () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    const open = { system_kind: 'ATTESTATION', assignee_ids: [U1], status_key: 'TODO', due_date: new Date('2026-03-01T12:00:00.001Z') };
    expect(attestationAnswerProblem(open, U1, now)).toBeNull();
    expect(attestationAnswerProblem({ ...open, status_key: 'IN_PROGRESS' }, U1, now)).toBeNull();
    expect(attestationAnswerProblem({ ...open, system_kind: 'DELEGATION_ACCEPTANCE' }, U1, now)).toMatchObject({ status: 409 });
    expect(attestationAnswerProblem({ ...open, system_kind: null }, U1, now)).toMatchObject({ status: 409 });
    expect(attestationAnswerProblem(open, U2, now)).toMatchObject({ status: 403 });
    for (const key of ['COMPLETED', 'CANCELED', 'OVERDUE']) expect(attestationAnswerProblem({ ...open, status_key: key }, U1, now)).toMatchObject({ status: 409 });
    expect(attestationAnswerProblem({ ...open, due_date: now }, U1, now)).toMatchObject({ status: 409, message: expect.stringContaining('2026-03-01T12:00:00.000Z') });
  });

  it('who acts: the recipient accepts; approvers are those named but the issuer and the recipient', () => {
    expect(acceptanceAssignees({ recipientUserId: U1, issuerUserId: U2, notifyUserIds: [U2, U1] })).toEqual([U1]);
    expect(acceptanceAssignees({ recipientUserId: null, issuerUserId: U2, notifyUserIds: [U2, U1, U1] })).toEqual([U1]);
    expect(approvalAssignees({ recipientUserId: U1, issuerUserId: U2, notifyUserIds: [U2, U1, T] })).toEqual([T]);
    expect(approvalAssignees({ recipientUserId: U1, issuerUserId: U2 })).toEqual([]);
  });

  it("an action's link is opaque and points at the cause of a system action", () => {
    const decode = (s: string) => Buffer.from(s, 'base64url').toString();
    expect(decode(actionLink('https://app.example.com/', { id: 'a1', delegationId: null, documentId: null, isSystemGenerated: false }))).toBe('https://app.example.com/actions/a1?actionId=a1');
    expect(decode(actionLink('https://app.example.com', { id: 'a1', delegationId: 'd1', documentId: null, isSystemGenerated: true }))).toBe('https://app.example.com/delegations/d1?actionId=a1');
  });

  it('the view for a caller: link and permissions; owner and assignees may edit; the payload drops the people', () => {
    const stored = { id: 'a1', ownerId: U1, assignees: [{ assigneeId: U2 }], delegationId: null, documentId: null, isSystemGenerated: false, statusKey: 'TODO', systemKind: null, version: 3 } as unknown as StoredActionView;
    const asAssignee = toActionView(stored, { userId: U2, keys: new Set(['create:actions']) }, 'https://app');
    expect(asAssignee.permissions).toEqual([{ relationship_key: 'create:actions', allowed: true }, { relationship_key: 'edit:actions', allowed: true }]);
    expect(asAssignee).not.toHaveProperty('statusKey');
    expect(asAssignee).not.toHaveProperty('version');
    const asStranger = toActionView(stored, { userId: T, keys: new Set() }, 'https://app');
    expect(asStranger.permissions.map((p) => p.allowed)).toEqual([false, false]);
    expect(toActionPayload(stored)).toMatchObject({ id: 'a1', ownerId: U1, assigneeIds: [U2], statusKey: 'TODO', version: 3 });
  });
});

describe('action input', () => {
  it('create: actionName 1..200 trimmed; files 0..20 http(s) URLs; assignees 0..100 UUIDs; nothing else', async () => {
    expect(await problems(CreateActionDto, { actionName: 'Prepare board pack' })).toEqual([]);
    expect(plainToInstance(CreateActionDto, { actionName: ' x ' }).actionName).toBe('x');
    expect(await problems(CreateActionDto, {})).toEqual(['actionName']);
    expect(await problems(CreateActionDto, { actionName: '  ' })).toEqual(['actionName']);
    expect(await problems(CreateActionDto, { actionName: 'x'.repeat(201) })).toEqual(['actionName']);
    expect(await problems(CreateActionDto, { actionName: 'x', files: [{ fileUrl: 'ftp://a.example.com/x' }] })).toEqual(['files']);
    expect(await problems(CreateActionDto, { actionName: 'x', files: [{ fileUrl: 'https://a.example.com/x', fileName: 'x' }] })).toEqual([]);
    expect(await problems(CreateActionDto, { actionName: 'x', assigneeIds: Array.from({ length: 101 }, () => U1) })).toEqual(['assigneeIds']);
    expect(await problems(CreateActionDto, { actionName: 'x', assigneeIds: ['nope'] })).toEqual(['assigneeIds']);
    expect(await problems(CreateActionDto, { actionName: 'x', description: 'd'.repeat(5001) })).toEqual(['description']);
    expect(await problems(CreateActionDto, { actionName: 'x', ownerId: null })).toEqual(['ownerId']);
    expect(await problems(CreateActionDto, { actionName: 'x', decisionId: null, dueDate: null })).toEqual([]);
    expect(await problems(CreateActionDto, { actionName: 'x', dueDate: '2026-02-30T00:00:00Z' })).toEqual(['dueDate']);
    expect(await problems(CreateActionDto, { actionName: 'x', isSystemGenerated: true })).toEqual(['isSystemGenerated']);
  });

  it('update, bulk-reassign and validate-action bounds', async () => {
    expect(await problems(UpdateActionDto, {})).toEqual([]); // the service answers 400 "Nothing to change"
    expect(await problems(UpdateActionDto, { actionName: null })).toEqual(['actionName']);
    expect(await problems(BulkReassignDto, { actionIds: [U1], assigneeIds: [U2] })).toEqual([]);
    expect(await problems(BulkReassignDto, { actionIds: [], assigneeIds: [] })).toEqual(['actionIds', 'assigneeIds']);
    expect(await problems(BulkReassignDto, { actionIds: Array.from({ length: 501 }, () => U1), assigneeIds: [U2] })).toEqual(['actionIds']);
    expect(await problems(ValidateActionDto, { delegationId: U1 })).toEqual(['tenantId']);
    expect(await problems(ValidateActionDto, { tenantId: T, decisionId: U1 })).toEqual([]);
  });

  it('list: defaults, comma lists, booleans as strings, bounds', async () => {
    const q = plainToInstance(ListActionsQuery, { ownerIds: `${U1}, ${U2}`, onlyMine: 'true', overdue: 'false' });
    expect(q).toMatchObject({ page: 1, limit: 10, sortBy: 'createdAt', sortOrder: 'asc', ownerIds: [U1, U2], onlyMine: true, overdue: false });
    expect(await problems(ListActionsQuery, { sortBy: 'dueDate', sortOrder: 'desc', select: 'id,actionName' })).toEqual([]);
    expect(await problems(ListActionsQuery, { sortBy: 'owner' })).toEqual(['sortBy']);
    expect(await problems(ListActionsQuery, { select: 'secret' })).toEqual(['select']);
    expect(await problems(ListActionsQuery, { limit: '0' })).toEqual(['limit']);
    expect(await problems(ListActionsQuery, { dueDateStart: 'soon' })).toEqual(['dueDateStart']);
    expect(await problems(ListActionsQuery, { search: 's'.repeat(201) })).toEqual(['search']);
  });
});
