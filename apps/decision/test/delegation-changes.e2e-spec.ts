import { expectErrorBody, pastInstant, startHarness, until, UUID7 } from '@ddm/testing';
import { announcedDocument, decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const DELEGATIONS = '/decision/v1/delegations';
const UNKNOWN = '0190a000-0000-7000-8000-00000000dead';
interface Outboxed {
  subject: string;
  payload: Record<string, unknown>;
}

/**
 * Changing delegations after they are issued (e2e, real Postgres and NATS): PATCH with its rules and
 * its 409 unless cascade, bulk-delete, bulk-reassign-recipients as a job, and the delegation request.
 * Demo Co's reporting line (auth seed): admin → manager → user, admin → auditor.
 */
describe('delegations: changes after issue (e2e)', () => {
  let h: DecisionHarness;
  let decisionId: string;
  let admin: string, manager: string, user: string, auditor: string;

  const to = (recipientUserId: string) => ({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId }] });
  const issue = async (body: object, token = h.tokens.admin) => {
    const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId, status: 'ISSUED', ...body } });
    expect(res.status).toBe(200);
    return res.body.data[0] as { id: string; delegationDisplayId: string; status: string };
  };
  const get = async (id: string) => (await h.svc.http.get(`${DELEGATIONS}/${id}`, { token: h.tokens.admin })).body.data;
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${DELEGATIONS}/${id}`, { token, body });
  const eventsOf = (id: string) =>
    h.db.query<Outboxed>(`SELECT subject, payload FROM decision.outbox WHERE payload->>'delegationId' = $1 ORDER BY created_at, id`, [id]);
  /** root (manager, 5000, redelegable, Matrix + Direct Line) → child (user, 4000, redelegable) → grandchild (auditor, 3000). */
  const tree = async () => {
    const root = await issue({ ...to(manager), delegationPathway: ['Matrix', 'Direct Line'], delegationAuthorities: [approvalLimit(h, '5000', { redelegable: true })] });
    const child = await issue({ parentDelegationId: root.id, ...to(user), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '4000', { redelegable: true })] }, h.tokens.manager);
    const grandchild = await issue({ parentDelegationId: child.id, ...to(auditor), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '3000')] }, h.tokens.user);
    return { root, child, grandchild };
  };

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    [admin, manager, user, auditor] = ['admin', 'manager', 'user', 'auditor'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: {
        name: 'Approve capital expenditure (changes spec)',
        status: 'PUBLISHED',
        delegationPathway: ['Matrix', 'Direct Line', 'Down-Line'],
        decisionGroups: [{ groupId: h.refs.groups.get('Finance') }],
        decisionAuthorities: [approvalLimit(h, '1000000')],
      },
    });
    expect(res.status).toBe(200);
    decisionId = res.body.data.id;
  });
  afterAll(() => h?.close());

  describe('PATCH /delegations/{id}', () => {
    it('changes the terms within the parent, with a revision and the updated event carrying the new version', async () => {
      const { root, child } = await tree();
      const documentId = await announcedDocument(h, h.demo.id);
      const before = await eventsOf(child.id);
      const res = await patch(child.id, { delegationAuthorities: [approvalLimit(h, '3500', { redelegable: true })], effectiveDate: '2030-01-01T00:00:00.000Z', delegationDocuments: [{ documentId, isPinned: true }] }, h.tokens.manager);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: child.id, parentDelegationId: root.id, status: 'ISSUED', effectiveDate: '2030-01-01T00:00:00.000Z', isNoExpiration: true, isInvalid: false });
      expect(res.body.data.delegationAuthorities[0]).toMatchObject({ authorityLimitValue: '3500', redelegable: true });
      expect(res.body.data.delegationDocuments).toEqual([expect.objectContaining({ documentId, isPinned: true })]);
      const after = await eventsOf(child.id);
      const updated = after.slice(before.length).filter((e) => e.subject === 'evt.decision.delegation.updated');
      expect(updated).toHaveLength(1);
      expect(Number(updated[0].payload.version)).toBeGreaterThan(Number(before[before.length - 1].payload.version));
      expect(updated[0].payload.documentIds).toEqual([documentId]);
    });

    it('refuses terms beyond the parent (400 naming the field), and only the fields it changes are checked', async () => {
      const { child } = await tree();
      const above = await patch(child.id, { delegationAuthorities: [approvalLimit(h, '5000.01', { redelegable: true })] });
      expectErrorBody(above, 400);
      expect(above.body.errors.map((e: { field: string }) => e.field)).toContain('delegationAuthorities.0.authorityLimitValue');
      const later = await patch(child.id, { expirationDate: '2099-01-01T00:00:00.000Z' });
      expectErrorBody(later, 409); // its own child has no expiration: it may not outlive its parent (Parent)
      expect(later.body.errors[0].message).toBe('would break Parent (depth 1)');
      const pathway = await patch(child.id, { delegationPathway: ['Down-Line'] });
      expectErrorBody(pathway, 400);
      expect(pathway.body.errors.map((e: { field: string }) => e.field)).toContain('delegationPathway');
      expect((await patch(child.id, { recipientAutoIssue: true })).status).toBe(200);
    });

    it("a change that breaks its own descendants is a 409 listing them; with cascade: true it is made and they are marked invalid", async () => {
      const { child, grandchild } = await tree();
      const refused = await patch(child.id, { delegationAuthorities: [approvalLimit(h, '2000', { redelegable: true })] });
      expectErrorBody(refused, 409);
      expect(refused.body.message).toMatch(/would make 1 delegation\(s\) below/);
      expect(refused.body.errors).toEqual([{ field: `childDelegations.${grandchild.id}`, message: 'would break Authority (depth 1)' }]);
      expect((await get(child.id)).delegationAuthorities[0].authorityLimitValue).toBe('4000');
      expect((await get(grandchild.id)).isInvalid).toBe(false);

      const made = await patch(child.id, { delegationAuthorities: [approvalLimit(h, '2000', { redelegable: true })], cascade: true });
      expect(made.status).toBe(200);
      expect(made.body.data.delegationAuthorities[0].authorityLimitValue).toBe('2000');
      expect(await get(grandchild.id)).toMatchObject({ isInvalid: true, invalidFields: ['Authority'] });
      expect((await eventsOf(grandchild.id)).map((e) => e.subject)).toContain('evt.decision.delegation.invalidated');
      // Widening again mends it.
      expect((await patch(child.id, { delegationAuthorities: [approvalLimit(h, '3000', { redelegable: true })] })).status).toBe(200);
      expect(await get(grandchild.id)).toMatchObject({ isInvalid: false, invalidFields: [] });
    });

    it('a new recipient: checked for reach, an accepted delegation awaits them again, and the old holder\'s redelegations break Issuer', async () => {
      const { root, child, grandchild } = await tree();
      expect((await h.svc.http.post(`${DELEGATIONS}/${child.id}/accept`, { token: h.tokens.user, body: {} })).body.data.status).toBe('ACCEPTED');
      // root's pathways are Matrix and Direct Line: manager's direct report (user) and anyone along Matrix.
      const res = await patch(child.id, { recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: admin }], cascade: true }, h.tokens.manager);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ recipientUserId: admin, status: 'ISSUED', acceptedDate: null });
      expect(await get(grandchild.id)).toMatchObject({ isInvalid: true, invalidFields: ['Issuer'] });
      const refused = await patch(root.id, { recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: UNKNOWN }] });
      expectErrorBody(refused, 404);
      expectErrorBody(await patch(child.id, { recipientType: 'POSITION_ONLY' }), 400);
    });

    it('403 for someone who may not manage it, 404 for another tenant, 409 once it has ended, 400 for an unknown field', async () => {
      const { root, grandchild } = await tree();
      expectErrorBody(await patch(root.id, { recipientAutoIssue: true }, h.tokens.user), 403);
      expectErrorBody(await patch(root.id, { recipientAutoIssue: true }, h.tokens.otherAdmin), 404);
      expectErrorBody(await patch(UNKNOWN, { recipientAutoIssue: true }), 404);
      expectErrorBody(await patch(root.id, { color: 'red' }), 400);
      expect((await h.svc.http.post(`${DELEGATIONS}/${grandchild.id}/revoke`, { token: h.tokens.admin, body: {} })).status).toBe(200);
      const ended = await patch(grandchild.id, { recipientAutoIssue: true });
      expectErrorBody(ended, 409);
      expect(ended.body.message).toMatch(/is REVOKED/);
    });
  });

  describe('GET /delegations/{id}/changelog', () => {
    it('every change is a revision with its reviser and the fields it changed; paged and sorted; the id is a delegation history id', async () => {
      const { child } = await tree();
      expect((await patch(child.id, { delegationAuthorities: [approvalLimit(h, '3500', { redelegable: true })] }, h.tokens.manager)).status).toBe(200);
      expect((await h.svc.http.post(`${DELEGATIONS}/${child.id}/suspend`, { token: h.tokens.admin, body: {} })).status).toBe(200);
      const res = await h.svc.http.get(`${DELEGATIONS}/${child.id}/changelog?limit=2`, { token: h.tokens.admin });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ total: 3, page: 1, limit: 2 });
      const [suspended, updated] = res.body.data.data;
      expect(Object.keys(suspended).sort()).toEqual(['change', 'changes', 'delegationId', 'id', 'revisedById', 'revisedByName', 'revisionDate', 'revisionId']);
      expect(suspended).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), delegationId: child.id, revisionId: '3', change: 'suspend', revisedById: admin, revisedByName: expect.any(String) });
      expect(suspended.changes).toEqual([{ field: 'status', from: 'ISSUED', to: 'SUSPENDED' }]);
      expect(updated).toMatchObject({ revisionId: '2', change: 'updated', revisedById: manager });
      expect(updated.changes).toEqual([
        {
          field: 'delegationAuthorities',
          from: [expect.objectContaining({ authorityLimitValue: '4000' })],
          to: [expect.objectContaining({ authorityLimitValue: '3500' })],
        },
      ]);
      const asc = await h.svc.http.get(`${DELEGATIONS}/${child.id}/changelog?sortBy=revisionDate&sortOrder=asc`, { token: h.tokens.admin });
      const first = asc.body.data.data[0];
      expect(first).toMatchObject({ revisionId: '1', change: 'issued', revisedById: manager });
      expect(first.changes).toEqual(expect.arrayContaining([{ field: 'status', from: null, to: 'ISSUED' }]));
      // The entry's id reads the conditions as they stood then.
      expect((await h.svc.http.get(`${DELEGATIONS}/${first.id}/conditions-history`, { token: h.tokens.admin })).status).toBe(200);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${child.id}/changelog?limit=101`, { token: h.tokens.admin }), 400);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${child.id}/changelog?sortBy=name`, { token: h.tokens.admin }), 400);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${child.id}/changelog`, { token: h.tokens.otherAdmin }), 404);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${UNKNOWN}/changelog`, { token: h.tokens.admin }), 404);
    });
  });

  describe('GET /delegations/{id}?at=', () => {
    it('answers the delegation as it stood at an instant (its revision then); before it existed a 404', async () => {
      const before = new Date(Date.now() - 1000).toISOString();
      const { child } = await tree();
      const issuedAt = new Date().toISOString();
      await pastInstant(issuedAt);
      expect((await h.svc.http.post(`${DELEGATIONS}/${child.id}/suspend`, { token: h.tokens.admin, body: {} })).status).toBe(200);
      expect((await patch(child.id, { delegationAuthorities: [approvalLimit(h, '3500', { redelegable: true })] }, h.tokens.manager)).status).toBe(200);
      const at = (instant: string) => h.svc.http.get(`${DELEGATIONS}/${child.id}?at=${encodeURIComponent(instant)}`, { token: h.tokens.admin });
      const then = await at(issuedAt);
      expect(then.status).toBe(200);
      expect(then.body.data).toMatchObject({ id: child.id, status: 'ISSUED', delegationAuthorities: [expect.objectContaining({ authorityLimitValue: '4000' })] });
      expect(then.body.data).not.toHaveProperty('conditions');
      const now = await at(new Date().toISOString());
      expect(now.body.data).toMatchObject({ status: 'SUSPENDED', delegationAuthorities: [expect.objectContaining({ authorityLimitValue: '3500' })] });
      expectErrorBody(await at(before), 404);
      expectErrorBody(await at('yesterday'), 400);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${child.id}?at=${encodeURIComponent(issuedAt)}`, { token: h.tokens.otherAdmin }), 404);
      // Each revision is valid until the next: one open revision per delegation.
      const open = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.delegation_revisions WHERE delegation_id = $1 AND valid_to IS NULL`, [child.id]);
      expect(open[0].n).toBe(1);
    });
  });

  describe('roles', () => {
    let roleDecisionId: string;
    beforeAll(async () => {
      const res = await h.svc.http.post('/decision/v1/decisions', {
        token: h.tokens.admin,
        body: { name: 'Sign leases (roles spec)', status: 'PUBLISHED', roleEnabled: true, delegationPathway: ['Matrix'], decisionAuthorities: [approvalLimit(h, '100000')] },
      });
      expect(res.status).toBe(200);
      roleDecisionId = res.body.data.id;
    });
    const issueWithRoles = async (body: object, token = h.tokens.admin) => {
      const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId: roleDecisionId, status: 'ISSUED', delegationPathway: ['Matrix'], ...body } });
      expect(res.status).toBe(200);
      return res.body.data[0] as { id: string };
    };

    it("lists the tenant's decision roles with how the delegation fills each; PATCH sets one, with isCascade on every delegation below; roles-history reads a revision", async () => {
      const root = await issueWithRoles({ ...to(manager), delegationAuthorities: [approvalLimit(h, '5000', { redelegable: true })] });
      const child = await issueWithRoles({ parentDelegationId: root.id, ...to(user), delegationAuthorities: [approvalLimit(h, '1000')] }, h.tokens.manager);
      const informed = h.refs.decisionRoles.get('Informed')!;
      const list = await h.svc.http.get(`${DELEGATIONS}/${root.id}/roles?limit=100`, { token: h.tokens.admin });
      expect(list.status).toBe(200);
      expect(list.body.data.total).toBe(h.refs.decisionRoles.size);
      const unset = list.body.data.data.find((r: { roleId: string }) => r.roleId === informed);
      expect(unset).toEqual({ id: null, delegationId: root.id, roleId: informed, roleName: 'Informed', designeeRecipientType: null, isAutoIssue: false, roleDesignees: [], roleStatus: 'INACTIVE', roleRequirement: null, isCascade: false, updatedAt: null });
      const names = list.body.data.data.map((r: { roleName: string }) => r.roleName);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));

      const set = await h.svc.http.patch(`${DELEGATIONS}/${root.id}/roles/${informed}`, {
        token: h.tokens.admin,
        body: { designeeRecipientType: 'SPECIFIC_PERSONNEL', roleDesignees: [{ designeeUserId: auditor }], roleStatus: 'ACTIVE', roleRequirement: 'Required', isCascade: true, isAutoIssue: 'true' },
      });
      expect(set.status).toBe(200);
      expect(set.body.data).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), delegationId: root.id, roleId: informed, roleName: 'Informed', designeeRecipientType: 'SPECIFIC_PERSONNEL', isAutoIssue: true, roleDesignees: [{ designeeUserId: auditor, designeePositionId: null }], roleStatus: 'ACTIVE', roleRequirement: 'Required', isCascade: true });
      const below = (await h.svc.http.get(`${DELEGATIONS}/${child.id}/roles?limit=100`, { token: h.tokens.admin })).body.data.data.find((r: { roleId: string }) => r.roleId === informed);
      expect(below).toMatchObject({ delegationId: child.id, roleStatus: 'ACTIVE', roleDesignees: [{ designeeUserId: auditor, designeePositionId: null }] });
      // The actions area hears of each: the designees, the issuer, one assignment id per change.
      for (const [id, issuer] of [[root.id, admin], [child.id, manager]]) {
        const assigned = (await eventsOf(id)).filter((e) => e.subject === 'evt.decision.delegation.role-assigned');
        expect(assigned.map((e) => e.payload)).toEqual([
          expect.objectContaining({ delegationId: id, roleId: informed, roleName: 'Informed', roleStatus: 'ACTIVE', designeeUserIds: [auditor], issuerUserId: issuer, assignmentId: expect.any(String) }),
        ]);
      }

      // The changelog has the role change; the revision before it had no roles set, the one of it has Informed.
      const log = (await h.svc.http.get(`${DELEGATIONS}/${root.id}/changelog?sortOrder=asc`, { token: h.tokens.admin })).body.data.data as { id: string; change: string }[];
      expect(log.map((e) => e.change)).toEqual(['issued', 'role changed']);
      const before = await h.svc.http.get(`${DELEGATIONS}/${log[0].id}/roles-history`, { token: h.tokens.admin });
      expect(before.status).toBe(200);
      expect(before.body.data.total).toBe(0);
      const then = await h.svc.http.get(`${DELEGATIONS}/${log[1].id}/roles-history`, { token: h.tokens.admin });
      expect(then.body.data.data).toEqual([expect.objectContaining({ roleId: informed, roleStatus: 'ACTIVE', roleRequirement: 'Required' })]);
      expect((await h.svc.http.get(`${DELEGATIONS}/${root.id}/roles-history`, { token: h.tokens.admin })).body.data.total).toBe(1);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${log[1].id}/roles-history`, { token: h.tokens.otherAdmin }), 404);
    });

    it('400 for a designee that does not fit its type, 404 for an unknown role or designee, 403 for who may not manage it, 409 when the decision takes no roles', async () => {
      const root = await issueWithRoles({ ...to(manager), delegationAuthorities: [approvalLimit(h, '5000')] });
      const informed = h.refs.decisionRoles.get('Informed')!;
      const set = (id: string, roleId: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${DELEGATIONS}/${id}/roles/${roleId}`, { token, body });
      const misfit = await set(root.id, informed, { designeeRecipientType: 'POSITION_ONLY', roleDesignees: [{ designeeUserId: auditor }] });
      expectErrorBody(misfit, 400);
      expect(misfit.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['roleDesignees.0.designeePositionId', 'roleDesignees.0.designeeUserId']);
      expectErrorBody(await set(root.id, UNKNOWN, { roleStatus: 'ACTIVE' }), 404);
      expectErrorBody(await set(root.id, informed, { designeeRecipientType: 'SPECIFIC_PERSONNEL', roleDesignees: [{ designeeUserId: UNKNOWN }] }), 404);
      expectErrorBody(await set(root.id, informed, { roleStatus: 'ACTIVE' }, h.tokens.user), 403);
      expectErrorBody(await set(root.id, informed, { roleStatus: 'MAYBE' }), 400);
      const plain = await issue({ ...to(manager), delegationAuthorities: [approvalLimit(h, '10')] });
      const refused = await set(plain.id, informed, { roleStatus: 'ACTIVE' });
      expectErrorBody(refused, 409);
      expect(refused.body.message).toMatch(/roleEnabled/);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${root.id}/roles`, { token: h.tokens.otherAdmin }), 404);
    });

    it('every delegation event carries its roles, those set while it was a DRAFT too, each with the assignment it stands at (the role-assigned one)', async () => {
      const informed = h.refs.decisionRoles.get('Informed')!;
      const consulted = h.refs.decisionRoles.get('Consulted')!;
      const set = (id: string, roleId: string, body: object) => h.svc.http.patch(`${DELEGATIONS}/${id}/roles/${roleId}`, { token: h.tokens.admin, body });
      const draft = await issueWithRoles({ status: 'DRAFT', ...to(manager), delegationAuthorities: [approvalLimit(h, '5000')] });
      expect((await set(draft.id, informed, { designeeRecipientType: 'SPECIFIC_PERSONNEL', roleDesignees: [{ designeeUserId: auditor }], roleStatus: 'ACTIVE' })).status).toBe(200);
      expect((await set(draft.id, consulted, { roleStatus: 'INACTIVE' })).status).toBe(200);
      // A draft announces nothing, not even its roles.
      expect(await eventsOf(draft.id)).toEqual([]);

      const issued = await h.svc.http.post(`${DELEGATIONS}/${draft.id}/issue`, { token: h.tokens.admin, body: {} });
      expect(issued.status).toBe(200);
      const [issuedEvent] = (await eventsOf(draft.id)).filter((e) => e.subject === 'evt.decision.delegation.issued');
      const draftRoles = issuedEvent.payload.roles as { roleId: string; roleStatus: string; assignmentId: string | null }[];
      expect([...draftRoles].sort((a, b) => a.roleId.localeCompare(b.roleId))).toEqual(
        [
          { roleId: informed, roleStatus: 'ACTIVE', assignmentId: expect.stringMatching(UUID7) },
          { roleId: consulted, roleStatus: 'INACTIVE', assignmentId: expect.stringMatching(UUID7) },
        ].sort((a, b) => a.roleId.localeCompare(b.roleId)),
      );
      const informedAt = draftRoles.find((r) => r.roleId === informed)!.assignmentId!;

      // A change on the issued delegation: its updated event (a newer version) and the role-assigned name the same, later, assignment.
      const before = (await eventsOf(draft.id)).length;
      expect((await set(draft.id, informed, { roleStatus: 'INACTIVE' })).status).toBe(200);
      const changed = (await eventsOf(draft.id)).slice(before);
      const updated = changed.find((e) => e.subject === 'evt.decision.delegation.updated')!;
      const assigned = changed.find((e) => e.subject === 'evt.decision.delegation.role-assigned')!;
      expect(Number(updated.payload.version)).toBeGreaterThan(Number(issuedEvent.payload.version));
      const nowInformed = (updated.payload.roles as { roleId: string; roleStatus: string; assignmentId: string }[]).find((r) => r.roleId === informed)!;
      expect(nowInformed).toEqual({ roleId: informed, roleStatus: 'INACTIVE', assignmentId: assigned.payload.assignmentId });
      expect(nowInformed.assignmentId > informedAt).toBe(true);
      expect(assigned.payload).toMatchObject({ roleId: informed, roleStatus: 'INACTIVE' });

      // Any other change of the delegation carries them too (revoked).
      expect((await h.svc.http.post(`${DELEGATIONS}/${draft.id}/revoke`, { token: h.tokens.admin, body: {} })).status).toBe(200);
      const [revoked] = (await eventsOf(draft.id)).filter((e) => e.subject === 'evt.decision.delegation.revoked');
      expect(revoked.payload.roles).toEqual(expect.arrayContaining([{ roleId: informed, roleStatus: 'INACTIVE', assignmentId: nowInformed.assignmentId }]));
      expect(revoked.payload.roles).toHaveLength(2);
    });
  });

  describe('PATCH /delegations/bulk-delete', () => {
    it('deletes the named ones and, with cascadeToChildDelegations, their subtrees; without it a 409; counts what it deleted', async () => {
      const { root, child, grandchild } = await tree();
      const lone = await issue({ ...to(auditor), delegationAuthorities: [approvalLimit(h, '10')] });
      const orphaning = await h.svc.http.patch(`${DELEGATIONS}/bulk-delete`, { token: h.tokens.admin, body: { delegationIds: [child.id, lone.id] } });
      expectErrorBody(orphaning, 409);
      expect(orphaning.body.errors).toEqual([{ field: `childDelegations.${grandchild.id}`, message: 'is a descendant of a named delegation' }]);
      expect((await get(lone.id)).status).toBe('ISSUED');

      const res = await h.svc.http.patch(`${DELEGATIONS}/bulk-delete`, { token: h.tokens.admin, body: { tenantId: h.demo.id, delegationIds: [child.id, lone.id], cascadeToChildDelegations: true } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ deleteCount: 3 });
      for (const id of [child.id, grandchild.id, lone.id]) {
        expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${id}`, { token: h.tokens.admin }), 404);
        const last = (await eventsOf(id)).at(-1)!;
        expect(last).toMatchObject({ subject: 'evt.decision.delegation.updated', payload: { status: 'DELETED' } });
      }
      expect((await get(root.id)).status).toBe('ISSUED');

      // Ended descendants do not hold the parent back, and stay (as history) when it goes alone.
      const again = await tree();
      expect((await h.svc.http.post(`${DELEGATIONS}/${again.grandchild.id}/revoke`, { token: h.tokens.admin, body: {} })).status).toBe(200);
      const alone = await h.svc.http.patch(`${DELEGATIONS}/bulk-delete`, { token: h.tokens.admin, body: { delegationIds: [again.child.id] } });
      expect(alone.body.data).toEqual({ deleteCount: 1 });
      expect((await get(again.grandchild.id)).status).toBe('REVOKED');
    });

    it('all or nothing: an unknown or another tenant\'s id is a 404 naming it, one the caller may not manage a 403; nothing changes', async () => {
      const { root } = await tree();
      const mine = await issue({ ...to(auditor), delegationAuthorities: [approvalLimit(h, '10')] });
      const missing = await h.svc.http.patch(`${DELEGATIONS}/bulk-delete`, { token: h.tokens.admin, body: { delegationIds: [mine.id, UNKNOWN] } });
      expectErrorBody(missing, 404);
      expect(missing.body.message).toContain(UNKNOWN);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/bulk-delete`, { token: h.tokens.otherAdmin, body: { delegationIds: [mine.id] } }), 404);
      const denied = await h.svc.http.patch(`${DELEGATIONS}/bulk-delete`, { token: h.tokens.user, body: { delegationIds: [root.id] } });
      expectErrorBody(denied, 403);
      expect(denied.body.message).toContain(root.id);
      expect((await get(mine.id)).status).toBe('ISSUED');
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/bulk-delete`, { token: h.tokens.admin, body: { delegationIds: [] } }), 400);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/bulk-delete`, { token: h.tokens.admin, body: { delegationIds: Array.from({ length: 1001 }, () => mine.id) } }), 400);
    });
  });

  describe('PATCH /delegations/bulk-reassign-recipients', () => {
    const reassign = async (delegationIds: string[], recipientUserId: string, token = h.tokens.admin) => {
      const res = await h.svc.http.patch(`${DELEGATIONS}/bulk-reassign-recipients`, { token, body: { delegationIds, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId }] } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ jobId: expect.stringMatching(UUID7), status: 'ACCEPTED', total: delegationIds.length });
      return until(
        async () => {
          const job = await h.svc.http.get(`/decision/v1/jobs/${res.body.data.jobId}`, { token });
          return ['COMPLETED', 'COMPLETED_WITH_ERRORS', 'FAILED'].includes(job.body.data.status) && job.body.data;
        },
        'the reassign job to end',
        30_000,
      );
    };

    it("reassigns each delegation the rules allow; a refused one (out of reach, ended) is a per-item error; an unknown one a 404 naming it, and no job", async () => {
      const { root, child } = await tree();
      const revoked = await issue({ ...to(auditor), delegationAuthorities: [approvalLimit(h, '10')] });
      await h.svc.http.post(`${DELEGATIONS}/${revoked.id}/revoke`, { token: h.tokens.admin, body: {} });
      // child was handed on by manager along Matrix: anyone is in reach. A Direct Line-only child to auditor is not (auditor does not report to manager).
      const direct = await issue({ parentDelegationId: root.id, ...to(user), delegationPathway: ['Direct Line'], delegationAuthorities: [approvalLimit(h, '100')] }, h.tokens.manager);
      const unknown = await h.svc.http.patch(`${DELEGATIONS}/bulk-reassign-recipients`, {
        token: h.tokens.admin,
        body: { delegationIds: [child.id, UNKNOWN], recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: auditor }] },
      });
      expectErrorBody(unknown, 404);
      expect(unknown.body.errors).toEqual([{ field: 'delegationIds.1', message: `Delegation ${UNKNOWN} not found` }]);
      const job = await reassign([child.id, direct.id, revoked.id], auditor);
      expect(job).toMatchObject({ kind: 'bulk-reassign-recipients', status: 'COMPLETED_WITH_ERRORS', total: 3, processed: 3, succeeded: 1, failed: 2 });
      const errors = new Map((job.errors as { id: string; message: string }[]).map((e) => [e.id, e.message]));
      expect(errors.get(direct.id)).toMatch(/breaks the rule "reach"/);
      expect(errors.get(revoked.id)).toMatch(/is REVOKED/);
      expect(await get(child.id)).toMatchObject({ recipientUserId: auditor, status: 'ISSUED' });
      expect((await get(direct.id)).recipientUserId).toBe(user);
      const updated = (await eventsOf(child.id)).filter((e) => e.subject === 'evt.decision.delegation.updated');
      expect(updated.map((e) => e.payload.recipientUserId)).toEqual([auditor]); // once
    });

    it('a delegation the requester may not manage is a per-item error; an unknown new recipient is a 404 at once', async () => {
      const { root } = await tree();
      const job = await reassign([root.id], auditor, h.tokens.user);
      expect(job).toMatchObject({ status: 'COMPLETED_WITH_ERRORS', failed: 1 });
      expect((job.errors as { message: string }[])[0].message).toMatch(/may reassign it/);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/bulk-reassign-recipients`, { token: h.tokens.admin, body: { delegationIds: [root.id], recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: UNKNOWN }] } }), 404);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/bulk-reassign-recipients`, { token: h.tokens.admin, body: { delegationIds: [root.id], recipientType: 'POSITION_ONLY', delegationRecipients: [{ recipientUserId: auditor }] } }), 400);
    });
  });

  describe('POST /delegations/delegation-request-action', () => {
    it('201 with who is asked, and the requested event for the actions area', async () => {
      const { root } = await tree();
      const res = await h.svc.http.post(`${DELEGATIONS}/delegation-request-action`, { token: h.tokens.user, body: { tenantId: h.demo.id, delegationId: root.id, decisionId } });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ delegationId: root.id, decisionId, actionName: 'Delegation Request', actionOwnerId: user, actionAssigneeIds: [manager] });
      const requested = (await eventsOf(root.id)).filter((e) => e.subject === 'evt.decision.delegation.requested');
      expect(requested).toHaveLength(1);
      expect(requested[0].payload).toMatchObject({ tenantId: h.demo.id, delegationId: root.id, decisionId, actionName: 'Delegation Request', actionOwnerId: user, actionAssigneeIds: [manager], requestedById: user, requestId: expect.stringMatching(UUID7) });
    });

    it('404 for an unknown or another tenant\'s delegation (or an unknown decision), 400 for the wrong decision, 409 when nobody holds it', async () => {
      const { root, grandchild } = await tree();
      const ask = (body: object, token = h.tokens.user) => h.svc.http.post(`${DELEGATIONS}/delegation-request-action`, { token, body });
      expectErrorBody(await ask({ delegationId: UNKNOWN, decisionId }), 404);
      expectErrorBody(await ask({ delegationId: root.id, decisionId }, h.tokens.otherAdmin), 404);
      const unknownDecision = await ask({ delegationId: root.id, decisionId: UNKNOWN });
      expectErrorBody(unknownDecision, 404);
      expect(unknownDecision.body.errors).toEqual([{ field: 'decisionId', message: `Decision ${UNKNOWN} not found` }]);
      const another = await h.svc.http.post('/decision/v1/decisions', { token: h.tokens.admin, body: { name: 'Another decision (request action)' } });
      expectErrorBody(await ask({ delegationId: root.id, decisionId: another.body.data.id }), 400);
      expectErrorBody(await ask({ delegationId: root.id }), 400);
      await h.svc.http.post(`${DELEGATIONS}/${grandchild.id}/revoke`, { token: h.tokens.admin, body: {} });
      expectErrorBody(await ask({ delegationId: grandchild.id, decisionId }), 409);
    });
  });
});
