import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { actionLink, allCompleted, attestationAnswerProblem, changedCauseFields, statusByName } from './action.rules';
import { BulkReassignDto, CreateActionDto, UpdateActionDto, ValidateActionDto } from './dto/action-change.dto';
import { ListActionsQuery } from './dto/list-actions.query';
import { StoredActionView, toActionPayload, toActionView } from './dto/action.response';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

const T = '0190f5c4-0000-7000-8000-0000000000aa';
const U1 = '0190f5c4-0000-7000-8000-000000000001';
const U2 = '0190f5c4-0000-7000-8000-000000000002';

describe('action rules', () => {
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
