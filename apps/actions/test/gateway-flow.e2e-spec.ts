import { TestSystem, startTestSystem, tokenFor, until } from '@ddm/testing';
import { Pool } from 'pg';

/**
 * The actions area with the areas it builds on, as separate processes behind the gateway: the
 * seeded actions, and a delegation issued in the decision area that waits for its recipient's
 * acceptance opening the recipient's action, which the acceptance completes, all on events.
 */
describe('system: actions behind the gateway, with auth, settings, decision and document, on events', () => {
  let system: TestSystem;
  let pool: Pool;
  let demoId: string;
  let userId: string;
  const admin = () => tokenFor('admin@demo.test');
  const user = () => tokenFor('user@demo.test');

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision', 'document', 'actions'] });
    pool = new Pool({ connectionString: system.db.url, max: 1 });
    const demo = system.seeded.tenants.find((t) => t.name === 'Demo Co')!;
    demoId = demo.id;
    userId = demo.users.find((u) => u.email === 'user@demo.test')!.id;
  }, 180_000);

  afterAll(async () => {
    await pool?.end();
    await system?.close();
  });

  it("serves the seeded actions through the gateway: the Global User's own (owned or assigned) by due date, 40 in all, the overdue ones Overdue", async () => {
    const res = await system.http.get('/actions/v1/actions?onlyMine=true&sortBy=dueDate&limit=20', { token: user() });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBeGreaterThan(0);
    for (const a of res.body.data.data) expect(a.ownerId === userId || a.assignees.some((x: { assigneeId: string }) => x.assigneeId === userId)).toBe(true);
    const dues = res.body.data.data.map((a: { dueDate: string }) => a.dueDate);
    expect(dues).toEqual([...dues].sort());
    const all = await system.http.get('/actions/v1/actions?isSystemGenerated=false&limit=1', { token: admin() });
    expect(all.body.data.total).toBe(40);
    const overdue = await system.http.get('/actions/v1/actions?overdue=true&limit=100', { token: admin() });
    expect(overdue.body.data.data.every((a: { status: { actionStatusName: string } }) => a.status.actionStatusName === 'Overdue')).toBe(true);
    const templates = await system.http.get('/settings/v1/action-templates', { token: user() });
    expect(templates.body.data.total).toBe(4);
  });

  it('a delegation awaiting acceptance opens the recipient’s acceptance action; accepting it in the decision area completes the action', async () => {
    const settings = await system.http.patch(`/auth/v1/tenants/${demoId}/settings`, {
      token: admin(),
      body: { delegationApprovalRequired: false, delegationAcceptanceRequired: true },
    });
    expect(settings.status).toBe(200);
    await until(async () => {
      const { rows } = await pool.query(
        `SELECT (SELECT acceptance_required FROM decision.tenant_settings_projection WHERE id = $1) AS d, (SELECT acceptance_required FROM actions.tenant_settings_projection WHERE id = $1) AS a`,
        [demoId],
      );
      return rows[0].d === true && rows[0].a === true;
    }, 'the settings in the decision and actions areas', 20_000);

    const decisions = await system.http.get('/decision/v1/decisions?search=Approve%20purchase%20orders&limit=1', { token: admin() });
    const decision = decisions.body.data.data[0];
    const authority = decision.decisionAuthorities.find((a: { authorityType: string }) => a.authorityType === 'Approval');
    const issued = await system.http.post('/decision/v1/delegations', {
      token: admin(),
      body: {
        decisionId: decision.id,
        status: 'ISSUED',
        recipientType: 'SPECIFIC_PERSONNEL',
        delegationRecipients: [{ recipientUserId: userId }],
        delegationAuthorities: [{ authorityTypeId: authority.authorityTypeId, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '100', authorityLimitValueUnit: 'USD' }],
      },
    });
    expect(issued.status).toBe(200);
    const delegation = issued.body.data[0];
    expect(delegation).toMatchObject({ status: 'PENDING', pendingStage: 'ACCEPTANCE' });

    const mine = () => system.http.get(`/actions/v1/actions?onlyMine=true&isSystemGenerated=true&delegationIds=${delegation.id}`, { token: user() });
    const opened = await until(async () => {
      const res = await mine();
      return res.body.data?.total === 1 && res.body.data.data[0];
    }, 'the acceptance action', 20_000);
    expect(opened).toMatchObject({
      actionName: `Accept delegation ${delegation.delegationDisplayId}`,
      isSystemGenerated: true,
      createdBy: 'System',
      delegationId: delegation.id,
      delegationDisplayId: delegation.delegationDisplayId,
      decisionId: decision.id,
      decisionDisplayId: decision.decisionDisplayId,
      status: { actionStatusName: 'To Do' },
    });
    expect(opened.assignees.map((x: { assigneeId: string }) => x.assigneeId)).toEqual([userId]);

    const accepted = await system.http.post(`/decision/v1/delegations/${delegation.id}/accept`, { token: user(), body: {} });
    expect(accepted.status).toBe(200);
    await until(async () => (await mine()).body.data.data[0]?.status.actionStatusName === 'Completed', 'the acceptance action completed', 20_000);
  });

  it("with approval required: the approval action goes to the tenant's approvers (holders of approve:delegations, from auth's keys); approving completes it and opens the recipient's acceptance", async () => {
    const settings = await system.http.patch(`/auth/v1/tenants/${demoId}/settings`, { token: admin(), body: { delegationApprovalRequired: true, delegationAcceptanceRequired: true } });
    expect(settings.status).toBe(200);
    await until(async () => {
      const { rows } = await pool.query(
        `SELECT (SELECT approval_required FROM decision.tenant_settings_projection WHERE id = $1) AS d, (SELECT approval_required FROM actions.tenant_settings_projection WHERE id = $1) AS a`,
        [demoId],
      );
      return rows[0].d === true && rows[0].a === true;
    }, 'the settings in the decision and actions areas', 20_000);
    // Who holds approve:delegations, as auth's user events told the decision area.
    const { rows: approverRows } = await pool.query<{ id: string }>(
      `SELECT id FROM decision.user_projection WHERE tenant_id = $1 AND status = 'ACTIVE' AND 'approve:delegations' = ANY(permission_keys) ORDER BY id`,
      [demoId],
    );
    const approvers = approverRows.map((r) => r.id);
    const adminId = (await pool.query<{ id: string }>(`SELECT id FROM decision.user_projection WHERE tenant_id = $1 AND email = 'admin@demo.test'`, [demoId])).rows[0].id;
    expect(approvers).toContain(adminId);
    expect(approvers).not.toContain(userId); // a Global User does not approve

    const decision = (await system.http.get('/decision/v1/decisions?search=Select%20new%20suppliers&limit=1', { token: admin() })).body.data.data[0];
    const authority = decision.decisionAuthorities.find((a: { authorityType: string }) => a.authorityType === 'Approval');
    const manager = tokenFor('manager@demo.test');
    const issued = await system.http.post('/decision/v1/delegations', {
      token: manager,
      body: {
        decisionId: decision.id,
        status: 'ISSUED',
        recipientType: 'SPECIFIC_PERSONNEL',
        delegationRecipients: [{ recipientUserId: userId }],
        delegationAuthorities: [{ authorityTypeId: authority.authorityTypeId, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '100', authorityLimitValueUnit: 'USD' }],
      },
    });
    expect(issued.status).toBe(200);
    const delegation = issued.body.data[0];
    expect(delegation).toMatchObject({ status: 'PENDING', pendingStage: 'APPROVAL' });
    const issuerId = delegation.issuerUserId as string;

    const ofDelegation = () => system.http.get(`/actions/v1/actions?isSystemGenerated=true&delegationIds=${delegation.id}&sortBy=createdAt&limit=10`, { token: admin() });
    const approval = await until(async () => {
      const res = await ofDelegation();
      return res.body.data?.total === 1 && res.body.data.data[0];
    }, 'the approval action', 20_000);
    expect(approval).toMatchObject({ actionName: `Approve delegation ${delegation.delegationDisplayId}`, ownerId: issuerId });
    // Every approver but the issuer and the recipient (nobody approves their own delegation).
    expect(approval.assignees.map((x: { assigneeId: string }) => x.assigneeId).sort()).toEqual(approvers.filter((id) => id !== issuerId && id !== userId).sort());

    expect((await system.http.post(`/decision/v1/delegations/${delegation.id}/approve`, { token: admin(), body: {} })).body.data).toMatchObject({ status: 'PENDING', pendingStage: 'ACCEPTANCE' });
    const both = await until(async () => {
      const res = await ofDelegation();
      return res.body.data?.total === 2 && res.body.data.data;
    }, 'the acceptance action after the approval', 20_000);
    const byName = new Map(both.map((a: { actionName: string }) => [a.actionName, a]));
    expect((byName.get(`Approve delegation ${delegation.delegationDisplayId}`) as { status: { actionStatusName: string } }).status.actionStatusName).toBe('Completed');
    expect((byName.get(`Accept delegation ${delegation.delegationDisplayId}`) as { assignees: { assigneeId: string }[] }).assignees.map((x) => x.assigneeId)).toEqual([userId]);
    await system.http.patch(`/auth/v1/tenants/${demoId}/settings`, { token: admin(), body: { delegationApprovalRequired: false, delegationAcceptanceRequired: false } });
  });

  it("a document's reviewer and approver get their actions from the document area's events; each answer completes its action", async () => {
    const manager = tokenFor('manager@demo.test');
    const { rows } = await pool.query<{ id: string; email: string }>(`SELECT id, email FROM actions.user_projection WHERE tenant_id = $1 AND email IN ('manager@demo.test', 'admin@demo.test')`, [demoId]);
    const idOf = (email: string) => rows.find((r) => r.email === email)!.id;
    const created = await system.http.post('/document/v1/documents', {
      token: admin(),
      body: { documentName: 'Signing policy (system flow)', documentUploadType: 'LINKED', documentUrl: 'https://intranet.example.com/signing.pdf', documentSharingType: 'TENANT', reviewerUserId: idOf('manager@demo.test'), approverUserId: idOf('admin@demo.test') },
    });
    expect(created.status).toBe(200);
    const document = created.body.data;
    expect(document.documentOversight.reviewStatus).toBe('REVIEW_PENDING');
    const ofDocument = () => system.http.get(`/actions/v1/actions?isSystemGenerated=true&documentIds=${document.id}&sortBy=createdAt&limit=10`, { token: admin() });
    const review = await until(async () => {
      const res = await ofDocument();
      return res.body.data?.total === 1 && res.body.data.data[0];
    }, 'the review action', 20_000);
    expect(review).toMatchObject({ actionName: 'Review document Signing policy (system flow)', documentId: document.id, documentDisplayId: document.documentDisplayId });
    expect(review.assignees.map((x: { assigneeId: string }) => x.assigneeId)).toEqual([idOf('manager@demo.test')]);

    expect((await system.http.post(`/document/v1/documents/${document.id}/review`, { token: manager, body: { decision: 'APPROVED', comment: 'Fine' } })).status).toBe(200);
    const both = await until(async () => {
      const res = await ofDocument();
      return res.body.data?.total === 2 && res.body.data.data;
    }, 'the approval action after the review', 20_000);
    type Listed = { actionName: string; status: { actionStatusName: string }; assignees: { assigneeId: string }[] };
    const byName = new Map((both as Listed[]).map((a) => [a.actionName, a]));
    expect(byName.get('Review document Signing policy (system flow)')!.status.actionStatusName).toBe('Completed');
    expect(byName.get('Approve document Signing policy (system flow)')!.assignees.map((x) => x.assigneeId)).toEqual([idOf('admin@demo.test')]);
    expect((await system.http.post(`/document/v1/documents/${document.id}/approve`, { token: admin(), body: { decision: 'APPROVED' } })).status).toBe(200);
    await until(async () => (await ofDocument()).body.data.data.every((a: { status: { actionStatusName: string } }) => a.status.actionStatusName === 'Completed'), 'both actions completed', 20_000);
  });
});
