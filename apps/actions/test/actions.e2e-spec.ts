import { actionDefaultId } from '@ddm/contracts';
import { expectErrorBody, httpClient, ISO, publishEvent, startHarness, until, UUID } from '@ddm/testing';
import { randomUUID } from 'node:crypto';
import { actionsApp, ActionsHarness } from './fixtures/actions-app';
import { announceDecision, announceDocument } from './fixtures/announcements';
import { expectRefused } from './fixtures/expectations';

const PATH = '/actions/v1/actions';

/** Every field of an action (spec §2.2). */
const ACTION_FIELDS = [
  'actionId', 'actionName', 'actionPriorityId', 'actionStatusId', 'actionTemplate', 'actionTemplateId', 'actionType', 'actionTypeId', 'assignees',
  'copiedFrom', 'createdAt', 'createdBy', 'decisionDisplayId', 'decisionId', 'delegationDisplayId', 'delegationId', 'deletedBy', 'deletedOn',
  'description', 'documentDisplayId', 'documentId', 'dueDate', 'files', 'id', 'isDeleted', 'isSystemGenerated', 'link', 'owner', 'ownerId',
  'permissions', 'priority', 'roleId', 'status', 'tenantId', 'updatedAt', 'updatedBy',
].sort();
const SUMMARY_FIELDS = ['displayName', 'email', 'id', 'manager', 'mobilePhone', 'name', 'positions', 'primaryOrganization', 'primaryOrganizationId', 'profileImageUrl'].sort();

interface Outboxed {
  subject: string;
  payload: { tenantId: string; action: Record<string, unknown>; newAssigneeIds?: string[] };
}

describe('actions (e2e, real Postgres and NATS, auth and settings as child processes)', () => {
  let h: ActionsHarness;
  let admin: string;
  let manager: string;
  let user: string;
  let auditor: string;
  const post = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const get = (id: string, token = h.tokens.admin) => h.svc.http.get(`${PATH}/${id}`, { token });
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${PATH}/${id}`, { token, body });
  const list = (query: string, token = h.tokens.admin) => h.svc.http.get(`${PATH}?${query}`, { token });
  const made = async (body: object, token = h.tokens.admin) => {
    const res = await post({ actionName: 'Task', ...body }, token);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const eventsOf = (id: string) =>
    h.db.query<Outboxed>(`SELECT subject, payload FROM actions.outbox WHERE payload->'action'->>'id' = $1 ORDER BY created_at, id`, [id]);
  const status = (key: string) => actionDefaultId(h.demo.id, 'status', key);
  const priority = (key: string) => actionDefaultId(h.demo.id, 'priority', key);

  beforeAll(async () => {
    h = await startHarness(actionsApp);
    admin = h.users.get('admin@demo.test')!;
    manager = h.users.get('manager@demo.test')!;
    user = h.users.get('user@demo.test')!;
    auditor = h.users.get('auditor@demo.test')!;
  });
  afterAll(() => h?.close());

  it("serves the tenant's statuses, priorities and types, and settings its action templates", async () => {
    const statuses = await h.svc.http.get('/actions/v1/action-statuses', { token: h.tokens.user });
    expect(statuses.status).toBe(200);
    expect(statuses.body.data.map((s: { actionStatusName: string }) => s.actionStatusName)).toEqual(['To Do', 'In Progress', 'Completed', 'Canceled', 'Overdue']);
    expect(statuses.body.data[0]).toEqual({ id: status('TODO'), tenantId: h.demo.id, actionStatusName: 'To Do', statusKey: 'TODO', isEnabled: true });
    const priorities = await h.svc.http.get('/actions/v1/action-priorities', { token: h.tokens.user });
    expect(priorities.body.data.map((p: { actionPriorityName: string; colorName: string }) => [p.actionPriorityName, p.colorName])).toEqual([
      ['Low', 'green'], ['Medium', 'blue'], ['High', 'orange'], ['Critical', 'red'],
    ]);
    const types = await h.svc.http.get('/actions/v1/action-types', { token: h.tokens.user });
    expect(types.body.data.map((t: { name: string }) => t.name)).toEqual(['Meeting', 'Email', 'Review', 'Approval', 'Task']);
    expect(types.body.data[0]).toEqual({ id: actionDefaultId(h.demo.id, 'type', 'MEETING'), tenantId: h.demo.id, type: 'MEETING', name: 'Meeting', typeIcon: 'calendar', status: true, isCustom: false });

    const templates = await httpClient(h.processes.settings.url).get('/settings/v1/action-templates?sortBy=name', { token: h.tokens.user });
    expect(templates.status).toBe(200);
    expect(templates.body.data).toMatchObject({ page: 1, limit: 10, total: 4 });
    expect(templates.body.data.data.map((t: { name: string }) => t.name)).toEqual(['Prepare Report', 'Review Document', 'Schedule Meeting', 'Send Email']);
    const send = templates.body.data.data[3];
    expect(send).toEqual({
      id: actionDefaultId(h.demo.id, 'template', 'SEND_EMAIL'), tenantId: h.demo.id, name: 'Send Email', description: expect.any(String), status: true,
      actionTypeId: actionDefaultId(h.demo.id, 'type', 'EMAIL'),
      type: { id: actionDefaultId(h.demo.id, 'type', 'EMAIL'), tenantId: h.demo.id, type: 'EMAIL', name: 'Email', typeIcon: 'mail', status: true, isCustom: false },
    });
    // The actions area learns the templates from the settings area's events.
    await until(async () => (await h.db.query(`SELECT 1 FROM actions.action_template_projection WHERE id = $1`, [send.id])).length > 0, 'the templates in the actions projection', 15_000);
  });

  it('creates an action with every field of §2.2, owner and assignees as §2.3 summaries, and answers it on GET', async () => {
    const decisionId = await announceDecision(h, h.demo.id, '10042');
    const documentId = await announceDocument(h, h.demo.id, '10007');
    const template = actionDefaultId(h.demo.id, 'template', 'SEND_EMAIL');
    await until(async () => (await h.db.query(`SELECT 1 FROM actions.action_template_projection WHERE id = $1`, [template])).length > 0, 'the template', 15_000);
    const res = await post({
      tenantId: h.demo.id,
      actionName: '  Prepare board pack ',
      actionTypeId: actionDefaultId(h.demo.id, 'type', 'EMAIL'),
      actionPriorityId: priority('HIGH'),
      actionStatusId: status('IN_PROGRESS'),
      ownerId: manager,
      assigneeIds: [user, manager],
      description: 'Slides and minutes for the board.',
      actionTemplateId: template,
      decisionId,
      documentId,
      dueDate: '2030-01-31T12:00:00Z',
      files: [{ fileUrl: 'https://files.example.com/pack.pdf', fileType: 'application/pdf', fileName: 'pack.pdf' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ statusCode: 200, message: 'Action created successfully', timestamp: expect.stringMatching(ISO) });
    const a = res.body.data;
    expect(Object.keys(a).sort()).toEqual(ACTION_FIELDS);
    expect(a).toMatchObject({
      id: expect.stringMatching(UUID), actionId: expect.stringMatching(/^\d{5,}$/), tenantId: h.demo.id, actionName: 'Prepare board pack',
      description: 'Slides and minutes for the board.', actionTypeId: actionDefaultId(h.demo.id, 'type', 'EMAIL'),
      actionType: { id: actionDefaultId(h.demo.id, 'type', 'EMAIL'), tenantId: h.demo.id, type: 'EMAIL', name: 'Email', typeIcon: 'mail', status: true, isCustom: false },
      actionTemplateId: template,
      actionTemplate: { id: template, tenantId: h.demo.id, name: 'Send Email', description: expect.any(String), status: true, type: { type: 'EMAIL', name: 'Email' } },
      actionPriorityId: priority('HIGH'), actionStatusId: status('IN_PROGRESS'),
      decisionId, decisionDisplayId: '10042', delegationId: null, delegationDisplayId: null, documentId, documentDisplayId: '10007', roleId: null,
      link: expect.any(String), ownerId: manager, dueDate: '2030-01-31T12:00:00.000Z', createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO),
      deletedOn: null, createdBy: expect.any(String), updatedBy: expect.any(String), deletedBy: null, copiedFrom: null, isDeleted: false, isSystemGenerated: false,
      priority: { id: priority('HIGH'), actionPriorityName: 'High', isEnabled: true, colorName: 'orange' },
      status: { id: status('IN_PROGRESS'), actionStatusName: 'In Progress', isEnabled: true },
      permissions: [{ relationship_key: 'create:actions', allowed: true }, { relationship_key: 'edit:actions', allowed: true }],
    });
    expect(a.createdBy).not.toBe('System');
    expect(Object.keys(a.owner).sort()).toEqual(SUMMARY_FIELDS);
    expect(a.owner).toMatchObject({ id: manager, email: 'manager@demo.test', positions: expect.any(Array) });
    expect(a.assignees.map((x: { assigneeId: string }) => x.assigneeId)).toEqual([user, manager]);
    for (const x of a.assignees) {
      expect(Object.keys(x).sort()).toEqual(['actionStatusId', 'actionStatusName', 'actionTakenDate', 'assignee', 'assigneeId', 'id']);
      expect(Object.keys(x.assignee).sort()).toEqual(SUMMARY_FIELDS);
      expect(x).toMatchObject({ actionStatusId: status('TODO'), actionStatusName: 'To Do', actionTakenDate: null });
    }
    expect(a.files).toEqual([{ id: expect.stringMatching(UUID), fileUrl: 'https://files.example.com/pack.pdf', fileType: 'application/pdf', fileName: 'pack.pdf', createdAt: expect.stringMatching(ISO) }]);
    // A user with a primary organisation answers it with the group's legal name and base currency, as the settings area has them.
    const withOrg = [a.owner, ...a.assignees.map((x: { assignee: object }) => x.assignee)].find((s: { primaryOrganization: unknown }) => s.primaryOrganization);
    if (withOrg) expect(Object.keys(withOrg.primaryOrganization).sort()).toEqual(['baseCurrency', 'displayName', 'groupName', 'id', 'legalName', 'tenantGroupTypeId', 'tenantGroupTypeName']);

    const again = await get(a.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(a);
    const events = await eventsOf(a.id);
    expect(events.map((e) => e.subject)).toEqual(['evt.actions.action.created', 'evt.actions.action.assigned']);
    expect(events[1].payload.newAssigneeIds).toEqual([user, manager]);
  });

  it("§2.3 summaries: the user's positions and manager from the auth area, the primary organisation's names, legalName and baseCurrency as the settings area has them now", async () => {
    const groupId = randomUUID();
    const group = (groupName: string, legalName: string) => ({
      tenantId: h.demo.id,
      group: { id: groupId, groupId: 'ORG123', groupName, displayName: groupName, tenantGroupTypeId: null, tenantGroupTypeName: 'Organizations', status: 'ACTIVE',
        isDeleted: false, externalId: null, instanceId: null, legalName, baseCurrency: 'EUR', parentGroupIds: [] },
    });
    await publishEvent(h.svc, 'evt.settings.group.created', group('Demo Europe', 'Demo Europe GmbH'));
    const personId = randomUUID();
    const positionId = randomUUID();
    await publishEvent(h.svc, 'evt.auth.user.created', {
      tenantId: h.demo.id,
      user: {
        id: personId, email: 'erika@demo.test', name: 'Erika Muster', displayName: 'Erika', profileImageUrl: 'https://img.example.com/e.png', mobilePhone: '+49 30 1234',
        status: 'ACTIVE', positions: [{ id: positionId, positionName: 'Controller', autoProvisioned: false }], primaryOrganizationId: groupId,
        primaryOrganization: { id: groupId, groupName: 'Demo Europe', displayName: 'Demo Europe', tenantGroupTypeId: null, tenantGroupTypeName: 'Organizations', legalName: 'Demo Europe GmbH', baseCurrency: 'EUR' },
        manager: { id: manager, name: 'Manager', displayName: 'Manager', profileImageUrl: null }, groupIds: [groupId],
      },
    });
    await until(async () => (await h.db.query(`SELECT 1 FROM actions.user_projection WHERE id = $1`, [personId])).length > 0, 'the new member');
    await until(async () => (await h.db.query(`SELECT 1 FROM actions.group_projection WHERE id = $1`, [groupId])).length > 0, 'the group');
    const a = await made({ actionName: 'Close the books', ownerId: personId, assigneeIds: [personId] });
    const summary = {
      id: personId, email: 'erika@demo.test', name: 'Erika Muster', displayName: 'Erika', profileImageUrl: 'https://img.example.com/e.png',
      positions: [{ id: positionId, positionName: 'Controller', autoProvisioned: false }], mobilePhone: '+49 30 1234', primaryOrganizationId: groupId,
      primaryOrganization: { id: groupId, groupName: 'Demo Europe', displayName: 'Demo Europe', tenantGroupTypeId: null, tenantGroupTypeName: 'Organizations', legalName: 'Demo Europe GmbH', baseCurrency: 'EUR' },
      manager: { id: manager, name: 'Manager', displayName: 'Manager', profileImageUrl: null },
    };
    expect(a.owner).toEqual(summary);
    expect(a.assignees[0].assignee).toEqual(summary);
    // The group renamed in settings: the summary follows (the user's own event still names the old one).
    await publishEvent(h.svc, 'evt.settings.group.updated', group('Demo Europe West', 'Demo Europe West GmbH'));
    await until(async () => (await get(a.id)).body.data.owner.primaryOrganization.legalName === 'Demo Europe West GmbH', 'the renamed organisation on the summary');
    expect((await get(a.id)).body.data.owner.primaryOrganization.groupName).toBe('Demo Europe West');
  });

  it('a new tenant gets its statuses, priorities and types from evt.auth.tenant.created, before anyone asks', async () => {
    const tenantId = randomUUID();
    await publishEvent(h.svc, 'evt.auth.tenant.created', { tenantId, name: 'New Co' });
    await until(async () => {
      const [r] = await h.db.query<{ s: number; p: number; t: number }>(
        `SELECT (SELECT count(*)::int FROM actions.action_statuses WHERE tenant_id = $1) AS s, (SELECT count(*)::int FROM actions.action_priorities WHERE tenant_id = $1) AS p,
                (SELECT count(*)::int FROM actions.action_types WHERE tenant_id = $1) AS t`,
        [tenantId],
      );
      return r.s === 5 && r.p === 4 && r.t === 5;
    }, "the new tenant's action configuration");
  });

  it('defaults: the caller owns it, To Do, Medium, no assignees', async () => {
    const a = await made({ actionName: 'Quick task' }, h.tokens.user);
    expect(a).toMatchObject({ ownerId: user, actionStatusId: status('TODO'), actionPriorityId: priority('MEDIUM'), assignees: [], files: [], actionType: null, actionTemplate: null });
  });

  it('400: a bad URL in files, 101 assignees, 21 files, an unknown field, a name over 200, a bad date', async () => {
    await expectRefused(
      (field) => post(
        field === 'files.0.fileUrl' ? { actionName: 'x', files: [{ fileUrl: 'ftp://example.com/a', fileName: 'a' }] }
        : field === 'assigneeIds' ? { actionName: 'x', assigneeIds: Array.from({ length: 101 }, () => admin) }
        : field === 'files' ? { actionName: 'x', files: Array.from({ length: 21 }, () => ({ fileUrl: 'https://a.example.com/x' })) }
        : field === 'color' ? { actionName: 'x', color: 'red' }
        : field === 'actionName' ? { actionName: 'n'.repeat(201) }
        : { actionName: 'x', dueDate: '2030-02-30T00:00:00Z' },
      ),
      [['files.0.fileUrl', 'files.0.fileUrl'], ['assigneeIds', 'assigneeIds'], ['files', 'files'], ['color', 'color'], ['actionName', 'actionName'], ['dueDate', 'dueDate']],
    );
    expectErrorBody(await post({ actionName: 'x', files: [{ fileUrl: 'javascript:alert(1)' }] }), 400);
  });

  it('403: an Auditor creating; 404: people, records and configuration the tenant does not have', async () => {
    const denied = await post({ actionName: 'x' }, h.tokens.auditor);
    expectErrorBody(denied, 403);
    expect(denied.body.message).toBe('Missing permission "create:actions"');

    const stranger = await post({ actionName: 'x', assigneeIds: [user, h.otherAdminId] });
    expectErrorBody(stranger, 404);
    expect(stranger.body.errors).toEqual([{ field: 'assigneeIds.1', message: `User ${h.otherAdminId} is not a member of the tenant` }]);
    const otherDecision = await announceDecision(h, h.other.id, '10001');
    const refs = await post({ actionName: 'x', ownerId: h.otherAdminId, decisionId: otherDecision, actionStatusId: actionDefaultId(h.other.id, 'status', 'TODO') });
    expectErrorBody(refs, 404);
    expect(refs.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['actionStatusId', 'decisionId', 'ownerId']);
    const unknownDelegation = await post({ actionName: 'x', delegationId: '0190f5c4-0000-7000-8000-00000000dead' });
    expectErrorBody(unknownDelegation, 404);
  });

  it('PATCH changes the create fields (owner, assignees, admin with edit:actions); a Global User may change only their own action', async () => {
    const a = await made({ actionName: 'Draft minutes', ownerId: admin, assigneeIds: [manager] });
    const foreign = await patch(a.id, { actionName: 'Mine now' }, h.tokens.user);
    expectErrorBody(foreign, 403);
    expect(foreign.body.message).toBe('Missing permission "edit:actions"');

    const changed = await patch(a.id, { actionName: 'Final minutes', assigneeIds: [manager, user], dueDate: null, description: 'Done soon', actionPriorityId: priority('CRITICAL') });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ actionName: 'Final minutes', description: 'Done soon', dueDate: null, priority: { actionPriorityName: 'Critical' } });
    expect(changed.body.data.assignees.map((x: { assigneeId: string }) => x.assigneeId)).toEqual([manager, user]);

    // Now an assignee, the Global User may change it; their permissions say so.
    const own = await patch(a.id, { description: 'Checked' }, h.tokens.user);
    expect(own.status).toBe(200);
    expect(own.body.data.permissions).toEqual([{ relationship_key: 'create:actions', allowed: true }, { relationship_key: 'edit:actions', allowed: true }]);
    const forAuditor = await get(a.id, h.tokens.auditor);
    expect(forAuditor.body.data.permissions).toEqual([{ relationship_key: 'create:actions', allowed: false }, { relationship_key: 'edit:actions', allowed: false }]);

    expectErrorBody(await patch(a.id, {}), 400);
    expectErrorBody(await patch(a.id, { actionName: null }), 400);
    expectErrorBody(await patch(a.id, { actionName: 'x' }, h.tokens.otherAdmin), 404);
    expectErrorBody(await patch('not-a-uuid', { actionName: 'x' }), 400);
    expect((await eventsOf(a.id)).map((e) => e.subject)).toEqual([
      'evt.actions.action.created', 'evt.actions.action.assigned', 'evt.actions.action.updated', 'evt.actions.action.assigned', 'evt.actions.action.updated',
    ]);
  });

  it('404 across tenants on GET; DELETE is soft, answers the action, and it leaves lists and GET', async () => {
    const a = await made({ actionName: 'Throwaway' });
    const b = await made({ actionName: 'Keeper' });
    expectErrorBody(await get(a.id, h.tokens.otherAdmin), 404);
    expectErrorBody(await h.svc.http.delete(`${PATH}/${a.id}`, { token: h.tokens.user }), 403);
    const deleted = await h.svc.http.delete(`${PATH}/${a.id}`, { token: h.tokens.admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: a.id, isDeleted: true, deletedOn: expect.stringMatching(ISO), deletedBy: expect.any(String) });
    expectErrorBody(await get(a.id), 404);
    const before = await list(`selectedActionIds=${a.id},${b.id}`);
    expect(before.body.data.data.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await list(`search=${a.actionId}`)).body.data.total).toBe(0);
    expect((await eventsOf(a.id)).map((e) => e.subject).at(-1)).toBe('evt.actions.action.deleted');
  });

  it('lists with filters, sorts, select and paging; global-search takes the same', async () => {
    const tag = `flt${Date.now()}`;
    const decisionId = await announceDecision(h, h.demo.id, '10077');
    const late = await made({ actionName: `${tag} late`, ownerId: manager, dueDate: '2001-01-01T00:00:00Z', actionPriorityId: priority('LOW') });
    const soon = await made({ actionName: `${tag} soon`, ownerId: admin, assigneeIds: [user], dueDate: '2031-01-01T00:00:00Z', actionPriorityId: priority('CRITICAL'), decisionId });
    const none = await made({ actionName: `${tag} none`, ownerId: admin, actionStatusId: status('COMPLETED'), dueDate: '2002-01-01T00:00:00Z' });
    const names = (res: { body: { data: { data: { actionName: string }[] } } }) => res.body.data.data.map((x) => x.actionName.replace(`${tag} `, ''));

    const all = await list(`search=${tag}&sortBy=dueDate`);
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ page: 1, limit: 10, total: 3 });
    expect(names(all)).toEqual(['late', 'none', 'soon']);
    expect(names(await list(`search=${tag}&sortBy=priority&sortOrder=desc`))).toEqual(['soon', 'none', 'late']);
    expect(names(await list(`search=${tag}&sortBy=actionName`))).toEqual(['late', 'none', 'soon']);
    expect(names(await list(`search=${tag}&overdue=true`))).toEqual(['late']);
    expect(names(await list(`search=${tag}&overdue=false&sortBy=actionName`))).toEqual(['none', 'soon']);
    expect(names(await list(`search=${tag}&ownerIds=${manager}`))).toEqual(['late']);
    expect(names(await list(`search=${tag}&assigneeIds=${user}`))).toEqual(['soon']);
    expect(names(await list(`search=${tag}&decisionIds=${decisionId}`))).toEqual(['soon']);
    expect(names(await list(`search=${tag}&actionStatusIds=${status('COMPLETED')}`))).toEqual(['none']);
    expect(names(await list(`search=${tag}&actionPriorityIds=${priority('LOW')},${priority('CRITICAL')}&sortBy=actionId`))).toEqual(['late', 'soon']);
    expect(names(await list(`search=${tag}&dueDateStart=2001-06-01T00:00:00Z&dueDateEnd=2031-01-01T00:00:00.000Z&sortBy=dueDate`))).toEqual(['none', 'soon']);
    expect(names(await list(`search=${tag}&onlyMine=true`, h.tokens.user))).toEqual(['soon']);
    expect(names(await list(`search=${tag}&isSystemGenerated=true`))).toEqual([]);
    const page2 = await list(`search=${tag}&sortBy=dueDate&limit=2&page=2`);
    expect(page2.body.data).toMatchObject({ page: 2, limit: 2, total: 3 });
    expect(names(page2)).toEqual(['soon']);
    const selected = await list(`search=${tag}&select=id,actionName,dueDate&sortBy=dueDate&limit=1`);
    expect(selected.body.data.data).toEqual([{ id: late.id, actionName: late.actionName, dueDate: '2001-01-01T00:00:00.000Z' }]);
    const searched = await h.svc.http.get(`${PATH}/global-search?search=${soon.actionId}`, { token: h.tokens.admin });
    expect(searched.body.data.data.map((x: { id: string }) => x.id)).toEqual([soon.id]);
    expect(none.id).toBeTruthy();
    // Another tenant sees none of them, and naming a tenant the caller is not a member of is a 403.
    expect((await list(`search=${tag}`, h.tokens.otherAdmin)).body.data.total).toBe(0);
    expectErrorBody(await list(`tenantId=${h.demo.id}`, h.tokens.otherAdmin), 403);

    await expectRefused((q) => list(q), [
      ['limit=101', 'limit'], ['sortBy=owner', 'sortBy'], ['ownerIds=abc', 'ownerIds'], ['select=secret', 'select'], ['overdue=maybe', 'overdue'],
      ['dueDateStart=yesterday', 'dueDateStart'], ['bogus=1', 'bogus'],
    ]);
  });

  it('bulk-reassign: each action ends up with exactly those assignees (kept ones keep their status); all or nothing with 404 and 403 naming the ids', async () => {
    const a = await made({ actionName: 'Reassign A', ownerId: admin, assigneeIds: [manager, user] });
    const b = await made({ actionName: 'Reassign B', ownerId: admin });
    const mine = await h.svc.http.patch(`${PATH}/${a.id}/assignee/status`, { token: h.tokens.user, body: { status: 'In Progress' } });
    expect(mine.status).toBe(200);

    const res = await h.svc.http.patch(`${PATH}/bulk-reassign`, { token: h.tokens.admin, body: { actionIds: [a.id, b.id], assigneeIds: [user, auditor] } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    const [ra, rb] = res.body.data;
    expect(ra.assignees.map((x: { assigneeId: string; actionStatusName: string }) => [x.assigneeId, x.actionStatusName])).toEqual([[user, 'In Progress'], [auditor, 'To Do']]);
    expect(ra.assignees[0].actionTakenDate).toMatch(ISO);
    expect(rb.assignees.map((x: { assigneeId: string }) => x.assigneeId)).toEqual([user, auditor]);
    const assigned = (await eventsOf(b.id)).filter((e) => e.subject === 'evt.actions.action.assigned');
    expect(assigned.map((e) => e.payload.newAssigneeIds)).toEqual([[user, auditor]]);

    const unknown = '0190f5c4-0000-7000-8000-00000000beef';
    const missing = await h.svc.http.patch(`${PATH}/bulk-reassign`, { token: h.tokens.admin, body: { actionIds: [a.id, unknown], assigneeIds: [manager] } });
    expectErrorBody(missing, 404);
    expect(missing.body.errors).toEqual([{ field: 'actionIds.1', message: `Action ${unknown} not found` }]);
    // The Global User is an assignee of a but not of c: 403 naming c; nothing changes.
    const c = await made({ actionName: 'Reassign C', ownerId: admin, assigneeIds: [manager] });
    const denied = await h.svc.http.patch(`${PATH}/bulk-reassign`, { token: h.tokens.user, body: { actionIds: [a.id, c.id], assigneeIds: [manager] } });
    expectErrorBody(denied, 403);
    expect(denied.body.message).toContain(c.id);
    expect(denied.body.message).not.toContain(a.id);
    expect((await get(a.id)).body.data.assignees.map((x: { assigneeId: string }) => x.assigneeId)).toEqual([user, auditor]);
    expectErrorBody(await h.svc.http.patch(`${PATH}/bulk-reassign`, { token: h.tokens.otherAdmin, body: { actionIds: [a.id], assigneeIds: [h.otherAdminId] } }), 404);
    await expectRefused(
      (f) => h.svc.http.patch(`${PATH}/bulk-reassign`, { token: h.tokens.admin, body: f === 'actionIds' ? { actionIds: [], assigneeIds: [user] } : { actionIds: [a.id], assigneeIds: Array.from({ length: 101 }, () => user) } }),
      [['actionIds', 'actionIds'], ['assigneeIds', 'assigneeIds']],
    );
  });

  it('assignee status: the caller’s own, by status name; when every assignee completed, the action is Completed', async () => {
    const a = await made({ actionName: 'Sign off', ownerId: admin, assigneeIds: [user, manager] });
    const path = `${PATH}/${a.id}/assignee/status`;
    expectErrorBody(await h.svc.http.patch(path, { token: h.tokens.auditor, body: { status: 'Completed' } }), 403);
    const bad = await h.svc.http.patch(path, { token: h.tokens.user, body: { status: 'Done-ish' } });
    expectErrorBody(bad, 400);
    expect(bad.body.errors[0].field).toBe('status');
    const first = await h.svc.http.patch(path, { token: h.tokens.user, body: { status: 'completed' } });
    expect(first.status).toBe(200);
    expect(first.body.data.status.actionStatusName).toBe('To Do');
    const second = await h.svc.http.patch(path, { token: h.tokens.manager, body: { status: 'Completed' } });
    expect(second.body.data.status.actionStatusName).toBe('Completed');
    expect(second.body.data.assignees.every((x: { actionStatusName: string; actionTakenDate: string }) => x.actionStatusName === 'Completed' && ISO.test(x.actionTakenDate))).toBe(true);
    expect((await eventsOf(a.id)).map((e) => e.subject).at(-1)).toBe('evt.actions.action.completed');
  });

  it('bulk-duplicate: copies with new ids and display ids, copiedFrom, assignees and files; 404 naming unknown ids', async () => {
    const a = await made({ actionName: 'Original', ownerId: manager, assigneeIds: [user], files: [{ fileUrl: 'https://x.example.com/f', fileName: 'f' }], actionStatusId: status('COMPLETED') });
    const res = await h.svc.http.post(`${PATH}/bulk-duplicate`, { token: h.tokens.user, body: { actionIds: [a.id] } });
    expect(res.status).toBe(200);
    const [copy] = res.body.data;
    expect(copy).toMatchObject({ actionName: 'Original', copiedFrom: a.id, ownerId: manager, status: { actionStatusName: 'To Do' }, isSystemGenerated: false });
    expect(copy.id).not.toBe(a.id);
    expect(Number(copy.actionId)).toBeGreaterThan(Number(a.actionId));
    expect(copy.assignees.map((x: { assigneeId: string }) => x.assigneeId)).toEqual([user]);
    expect(copy.files.map((f: { fileUrl: string }) => f.fileUrl)).toEqual(['https://x.example.com/f']);
    expectErrorBody(await h.svc.http.post(`${PATH}/bulk-duplicate`, { token: h.tokens.auditor, body: { actionIds: [a.id] } }), 403);
    const missing = await h.svc.http.post(`${PATH}/bulk-duplicate`, { token: h.tokens.otherAdmin, body: { actionIds: [a.id] } });
    expectErrorBody(missing, 404);
    expect(missing.body.errors).toEqual([{ field: 'actionIds.0', message: `Action ${a.id} not found` }]);
    expectErrorBody(await h.svc.http.post(`${PATH}/bulk-duplicate`, { token: h.tokens.admin, body: { actionIds: Array.from({ length: 101 }, () => a.id) } }), 400);
  });

  it('the overdue sweep moves open actions past their due date to Overdue, once, and publishes overdue', async () => {
    const { OverdueSweep } = await import('../src/sweeps/overdue.sweep');
    const a = await made({ actionName: 'Past due', dueDate: '2000-01-01T00:00:00Z' });
    const b = await made({ actionName: 'Future', dueDate: '2099-01-01T00:00:00Z' });
    const sweep = h.svc.app.get(OverdueSweep);
    expect(await sweep.sweep()).toBeGreaterThanOrEqual(1);
    expect((await get(a.id)).body.data.status.actionStatusName).toBe('Overdue');
    expect((await get(a.id)).body.data.updatedBy).toBe('System');
    expect((await get(b.id)).body.data.status.actionStatusName).toBe('To Do');
    expect(await sweep.sweep()).toBe(0);
    expect((await eventsOf(a.id)).filter((e) => e.subject === 'evt.actions.action.overdue')).toHaveLength(1);
    expect((await list(`search=${a.actionId}&overdue=true`)).body.data.total).toBe(1);
  });
});
