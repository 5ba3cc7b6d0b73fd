import { NatsClient } from '@ddm/platform';
import { expectErrorBody, HttpClient, httpClient, startHarness, tokenFor, until } from '@ddm/testing';
import { AckPolicy, DeliverPolicy } from 'nats';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const WHAT_IF = '/decision/v1/authority/what-if';
const DELEGATIONS = '/decision/v1/delegations';

interface Prediction {
  invalidated: { delegationId: string; delegationDisplayId: string; invalidFields: string[] }[];
  authorityLost: { userId: string; decisionId: string; authorityTypeId: string }[];
  authorityGained: { userId: string; decisionId: string; authorityTypeId: string }[];
  decisionsWithoutHolder: { decisionId: string; groupId: string | null }[];
}

/** What the spec reads of the organisation as it stands for real: every delegation's validity, who holds what (GET holders), the group hierarchy. */
interface Observed {
  delegations: Map<string, { displayId: string; invalidFields: string[]; groupIds: string[] }>;
  /** Per decision, the people holding it: through which delegation, with which types. */
  holders: Map<string, { userId: string; delegationId: string; types: string[] }[]>;
  parents: Map<string, string[]>;
}

/**
 * POST /decision/v1/authority/what-if (e2e; auth and settings as their own processes). An
 * organisation with delegations to each recipient type, redelegations and groups; for each kind of
 * change, and for several at once, the prediction is taken, the same change is then made for real
 * (through auth's and settings' APIs, whose events the decision area projects, or a PATCH of the
 * decision), and what really changed (delegations that became invalid, with their fields; who holds
 * what by GET holders; scopes left without a holder) must be exactly what was predicted.
 * Each step starts from the organisation the step before left.
 */
describe('reorg what-if (e2e, auth and settings as child processes)', () => {
  let h: DecisionHarness;
  let auth: HttpClient;
  let settings: HttpClient;
  let approvalType: string;
  const user = (n: string) => h.refs.users.get(`${n}@demo.test`)!;
  const group = (name: string) => h.refs.groups.get(name)!;
  const position = new Map<string, string>();
  const decision = { d1: '', d2: '', d3: '' };
  const decisionOrder = new Map<string, number>();
  const delegation: Record<string, { id: string; delegationDisplayId: string }> = {};

  const createDecision = async (name: string, value: string, groups: string[]) => {
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name, status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionGroups: groups.map((groupId) => ({ groupId })), decisionAuthorities: [approvalLimit(h, value)] },
    });
    expect(res.status).toBe(200);
    decisionOrder.set(res.body.data.id, Number(res.body.data.decisionDisplayId));
    return res.body.data.id as string;
  };

  const issue = async (name: string, decisionId: string, body: object, token = h.tokens.admin) => {
    const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId, status: 'ISSUED', delegationPathway: ['Matrix'], ...body } });
    expect(res.status).toBe(200);
    delegation[name] = res.body.data[0];
    return delegation[name];
  };

  const projectedUser = async (id: string) =>
    (await h.db.query<{ position_ids: string[]; manager_id: string | null; status: string }>(`SELECT position_ids, manager_id, status FROM decision.user_projection WHERE tenant_id = $1 AND id = $2`, [h.demo.id, id]))[0];

  const setPositions = async (userId: string, names: string[]) => {
    const ids = names.map((n) => position.get(n)!);
    const res = await auth.patch(`/auth/v1/user/update-entities/${userId}`, { token: h.tokens.admin, body: { positionIds: ids } });
    expect(res.status).toBe(200);
    await until(async () => (await projectedUser(userId)).position_ids.slice().sort().join() === ids.slice().sort().join(), "the user's positions to reach the decision area", 20_000);
  };

  const whatIf = async (changes: object[]) => {
    const res = await h.svc.http.post(WHAT_IF, { token: h.tokens.auditor, body: { tenantId: h.demo.id, changes } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('What-if evaluated successfully');
    return res.body.data as Prediction;
  };

  const observe = async (): Promise<Observed> => {
    const rows = await h.db.query<{ id: string; delegation_display_id: string; invalid_fields: string[]; group_ids: string[] }>(
      `SELECT id, delegation_display_id, invalid_fields, group_ids FROM decision.delegations WHERE tenant_id = $1`,
      [h.demo.id],
    );
    const holders = new Map<string, { userId: string; delegationId: string; types: string[] }[]>();
    for (const d of Object.values(decision)) {
      const res = await h.svc.http.get(`/decision/v1/authority/holders?decisionId=${d}&limit=100`, { token: h.tokens.auditor });
      expect(res.status).toBe(200);
      expect(res.body.data.total).toBeLessThanOrEqual(100);
      // Each person once, per type every delegation giving it: back to one entry per person and delegation.
      const items = res.body.data.data as { holderType: string; userId: string; authorities: { authorityTypeId: string; via: { delegationId: string }[] }[] }[];
      const byDelegation = new Map<string, { userId: string; delegationId: string; types: string[] }>();
      for (const x of items.filter((i) => i.holderType === 'USER')) {
        for (const a of x.authorities) {
          for (const v of a.via) {
            const entry = byDelegation.get(`${x.userId} ${v.delegationId}`) ?? { userId: x.userId, delegationId: v.delegationId, types: [] };
            entry.types.push(a.authorityTypeId);
            byDelegation.set(`${x.userId} ${v.delegationId}`, entry);
          }
        }
      }
      holders.set(d, [...byDelegation.values()]);
    }
    const groups = await h.db.query<{ id: string; parent_group_ids: string[] }>(`SELECT id, parent_group_ids FROM decision.group_projection WHERE tenant_id = $1`, [h.demo.id]);
    return {
      delegations: new Map(rows.map((r) => [r.id, { displayId: r.delegation_display_id, invalidFields: r.invalid_fields, groupIds: r.group_ids }])),
      holders,
      parents: new Map(groups.map((g) => [g.id, g.parent_group_ids])),
    };
  };

  /** What really happened between two observations, in the answer's shape and order. */
  const happened = async (before: Observed, after: Observed): Promise<Prediction> => {
    const invalidated = [...after.delegations]
      .filter(([id, d]) => d.invalidFields.length > 0 && d.invalidFields.join() !== before.delegations.get(id)!.invalidFields.join())
      .map(([id, d]) => ({ delegationId: id, delegationDisplayId: d.displayId, invalidFields: d.invalidFields }))
      .sort((a, b) => Number(a.delegationDisplayId) - Number(b.delegationDisplayId));
    const holdings = (o: Observed) => new Set([...o.holders].flatMap(([decisionId, hs]) => hs.flatMap((x) => x.types.map((t) => `${decisionOrder.get(decisionId)} ${x.userId} ${t} ${decisionId}`))));
    const [had, has] = [holdings(before), holdings(after)];
    const toView = (k: string) => {
      const [, userId, authorityTypeId, decisionId] = k.split(' ');
      return { userId, decisionId, authorityTypeId };
    };
    const decisionGroups = await h.db.query<{ decision_id: string; group_id: string }>(`SELECT decision_id, group_id FROM decision.decision_groups WHERE tenant_id = $1`, [h.demo.id]);
    const within = (o: Observed) => (g: string, scope: string[]) => {
      for (const todo = [g], seen = new Set<string>(); todo.length; ) {
        const x = todo.pop()!;
        if (scope.includes(x)) return true;
        if (seen.has(x)) continue;
        seen.add(x);
        todo.push(...(o.parents.get(x) ?? []));
      }
      return false;
    };
    const held = (o: Observed, decisionId: string, scope: string | null) =>
      o.holders.get(decisionId)!.some((x) => {
        const groups = o.delegations.get(x.delegationId)!.groupIds;
        return groups.length === 0 || (scope !== null && within(o)(scope, groups));
      });
    const decisionsWithoutHolder = Object.values(decision)
      .sort((a, b) => decisionOrder.get(a)! - decisionOrder.get(b)!)
      .flatMap((d) => {
        const own = decisionGroups.filter((g) => g.decision_id === d).map((g) => g.group_id);
        const scopes = new Set<string | null>(own.length ? own : [null]);
        for (const x of before.holders.get(d)!) for (const g of before.delegations.get(x.delegationId)!.groupIds) scopes.add(g);
        return [...scopes]
          .filter((s) => held(before, d, s) && !held(after, d, s))
          .sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : 1))
          .map((groupId) => ({ decisionId: d, groupId }));
      });
    return {
      invalidated,
      authorityLost: [...had].filter((k) => !has.has(k)).sort().map(toView),
      authorityGained: [...has].filter((k) => !had.has(k)).sort().map(toView),
      decisionsWithoutHolder,
    };
  };

  /** Predicts `changes`, makes them for real with `apply`, and expects exactly the prediction to have happened; answers the prediction. */
  const predictThenApply = async (changes: object[], apply: () => Promise<void>): Promise<Prediction> => {
    const before = await observe();
    const prediction = await whatIf(changes);
    // Nothing was written: the organisation is as it was.
    expect(await observe()).toEqual(before);
    await apply();
    const after = await observe();
    expect(prediction).toEqual(await happened(before, after));
    return prediction;
  };

  const holding = (n: string, d: string) => ({ userId: user(n), decisionId: d, authorityTypeId: approvalType });

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    auth = httpClient(h.processes.auth.url);
    settings = httpClient(h.processes.settings.url);
    approvalType = h.refs.authorityTypes.get('Approval')!;
    const positions = await h.db.query<{ id: string; position_name: string }>(`SELECT id, position_name FROM decision.position_projection WHERE tenant_id = $1 AND NOT is_deleted`, [h.demo.id]);
    for (const p of positions) position.set(p.position_name, p.id);

    await setPositions(user('staff03'), ['Treasurer']);
    await setPositions(user('staff04'), ['Accounts Payable Lead']);
    await setPositions(user('staff05'), ['Procurement Lead']);
    await setPositions(user('staff06'), ['Site Manager Toronto']);

    decision.d1 = await createDecision('Approve spend (what-if spec)', '1000000', [group('Demo Co North America'), group('Demo Co Europe')]);
    decision.d2 = await createDecision('Sign contracts (what-if spec)', '500000', []);
    decision.d3 = await createDecision('Hire staff (what-if spec)', '100000', [group('Demo Co North America')]);
    const { d1, d2, d3 } = decision;
    const to = (userId: string) => ({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: userId }] });
    const toPosition = (name: string) => ({ recipientType: 'POSITION_ONLY', delegationRecipients: [{ recipientPositionId: position.get(name) }] });
    const scoped = (...names: string[]) => ({ delegationGroups: names.map((n) => ({ groupId: group(n) })) });

    // Decision 1 (North America and Europe): to a person in a position and on, to positions and on, to people scoped to groups.
    await issue('rPip', d1, { recipientType: 'PERSONNEL_IN_POSITION', delegationRecipients: [{ recipientUserId: user('staff03'), recipientPositionId: position.get('Treasurer') }], delegationAuthorities: [approvalLimit(h, '200000', { redelegable: true })] });
    await issue('cPip', d1, { parentDelegationId: delegation.rPip.id, ...to(user('staff10')), delegationAuthorities: [approvalLimit(h, '50000')] }, tokenFor('staff03@demo.test'));
    await issue('rPos', d1, { ...toPosition('Treasurer'), delegationAuthorities: [approvalLimit(h, '100000')] });
    await issue('rAp', d1, { ...toPosition('Accounts Payable Lead'), delegationAuthorities: [approvalLimit(h, '300000', { redelegable: true })] });
    await issue('cAp', d1, { parentDelegationId: delegation.rAp.id, ...to(user('staff11')), delegationAuthorities: [approvalLimit(h, '10000')] }, tokenFor('staff04@demo.test'));
    await issue('rSp', d1, { ...to(user('staff06')), ...scoped('Demo Co Europe'), delegationAuthorities: [approvalLimit(h, '900000', { redelegable: true })] });
    await issue('cSp', d1, { parentDelegationId: delegation.rSp.id, ...to(user('staff13')), ...scoped('Berlin Office'), delegationAuthorities: [approvalLimit(h, '20000')] }, tokenFor('staff06@demo.test'));
    await issue('rFin', d1, { ...to(user('staff14')), ...scoped('Finance'), delegationAuthorities: [approvalLimit(h, '400000')] });
    await issue('rLon', d1, { ...to(user('staff17')), ...scoped('London HQ'), delegationAuthorities: [approvalLimit(h, '100000')] });
    // Decision 2 (no groups: its whole scope).
    await issue('r2', d2, { ...to(user('staff15')), delegationAuthorities: [approvalLimit(h, '450000')] });
    await issue('r2Pl', d2, { recipientType: 'PERSONNEL_IN_POSITION', delegationRecipients: [{ recipientUserId: user('staff05'), recipientPositionId: position.get('Procurement Lead') }], delegationAuthorities: [approvalLimit(h, '100000')] });
    // Decision 3 (North America), held only in Toronto.
    await issue('r3Tor', d3, { ...to(user('staff16')), ...scoped('Toronto Office'), delegationAuthorities: [approvalLimit(h, '50000')] });
    await issue('r3Smt', d3, { ...toPosition('Site Manager Toronto'), ...scoped('Toronto Office'), delegationAuthorities: [approvalLimit(h, '50000')] });

    const invalid = await h.db.query(`SELECT id FROM decision.delegations WHERE tenant_id = $1 AND is_invalid`, [h.demo.id]);
    expect(invalid).toEqual([]);
  });
  afterAll(() => h?.close());

  it('writes nothing: no delegation, revision, history row, projection row or outbox row changes, and no event is published', async () => {
    const counts = () =>
      h.db.query<Record<string, string>>(`SELECT
        (SELECT count(*) FROM decision.delegation_revisions) AS revisions, (SELECT count(*) FROM decision.outbox) AS outbox,
        (SELECT count(*) FROM decision.position_holding_history) AS holdings, (SELECT count(*) FROM decision.manager_history) AS managers,
        (SELECT count(*) FROM decision.group_history) AS groups, (SELECT count(*) FROM decision.decision_revisions) AS decision_revisions,
        (SELECT md5(string_agg(row(g.id, g.version, g.is_invalid, g.invalid_fields, g.updated_on)::text, ',' ORDER BY g.id)) FROM decision.delegations g) AS delegations,
        (SELECT md5(string_agg(u::text, ',' ORDER BY u.tenant_id, u.id)) FROM decision.user_projection u) AS users,
        (SELECT md5(string_agg(p::text, ',' ORDER BY p.id)) FROM decision.position_projection p) AS positions,
        (SELECT md5(string_agg(g::text, ',' ORDER BY g.id)) FROM decision.group_projection g) AS group_rows,
        (SELECT md5(string_agg(row(a.decision_id, a.authority_type_id, a.value_text)::text, ',' ORDER BY a.decision_id, a.position)) FROM decision.decision_authorities a) AS limits`);
    // Every decision event published from now on, in order (once the setup's have all left).
    await until(async () => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.outbox WHERE published_at IS NULL`))[0].n === 0, 'the outbox to be empty', 20_000);
    const nats = h.svc.app.get(NatsClient);
    await nats.jsm.consumers.add(h.svc.ns.subjects.eventsStream, {
      durable_name: 'what_if_probe',
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.New,
      filter_subject: h.svc.ns.subjects.wire('evt.decision.>'),
    });
    const probe = await nats.js.consumers.get(h.svc.ns.subjects.eventsStream, 'what_if_probe');
    const before = await counts();

    const prediction = await whatIf([
      { type: 'user-leaves-position', userId: user('staff03'), positionId: position.get('Treasurer') },
      { type: 'position-deleted', positionId: position.get('Accounts Payable Lead') },
      { type: 'user-deactivated', userId: user('staff06') },
      { type: 'manager-changed', userId: user('staff13'), managerId: null },
      { type: 'group-moved', groupId: group('Toronto Office'), parentGroupIds: [group('Demo Co Europe')] },
      { type: 'group-deleted', groupId: group('Demo Co Europe') },
      { type: 'decision-limit-changed', decisionId: decision.d2, authorityTypeId: approvalType, value: '1000' },
    ]);
    // The transaction did write (the invalidation ran, with its revisions and events) before it was rolled back.
    expect(prediction.invalidated.length).toBeGreaterThanOrEqual(8);
    expect(await counts()).toEqual(before);

    // A barrier: a real change publishes its event; everything published since the probe began is that event alone.
    expect((await h.svc.http.patch(`/decision/v1/decisions/${decision.d3}`, { token: h.tokens.admin, body: { description: 'barrier' } })).status).toBe(200);
    const seen: string[] = [];
    await until(async () => {
      const msg = await probe.next({ expires: 1_000 });
      if (msg) seen.push(h.svc.ns.subjects.logical(msg.subject));
      return seen.includes('evt.decision.decision.updated');
    }, 'the barrier event', 20_000);
    expect(seen).toEqual(['evt.decision.decision.updated']);
    await nats.jsm.consumers.delete(h.svc.ns.subjects.eventsStream, 'what_if_probe');
  });

  it('user-leaves-position: their PERSONNEL_IN_POSITION delegation (Recipient) and what they handed on (Issuer, Parent) become invalid; the position\'s authority leaves them', async () => {
    const { d1 } = decision;
    const p = await predictThenApply([{ type: 'user-leaves-position', userId: user('staff03'), positionId: position.get('Treasurer') }], () => setPositions(user('staff03'), []));
    expect(p.invalidated).toEqual([
      { delegationId: delegation.rPip.id, delegationDisplayId: delegation.rPip.delegationDisplayId, invalidFields: ['Recipient'] },
      { delegationId: delegation.cPip.id, delegationDisplayId: delegation.cPip.delegationDisplayId, invalidFields: ['Issuer', 'Parent'] },
    ]);
    // Through rPip and through rPos (the Treasurer position): both gone for staff03.
    expect(p.authorityLost).toEqual(expect.arrayContaining([holding('staff03', d1), holding('staff10', d1)]));
    expect(p.authorityLost).toHaveLength(2);
    expect(p.authorityGained).toEqual([]);
  });

  it('user-joins-position: back in the position, the delegations are mended (none invalidated) and the authority returns', async () => {
    const { d1 } = decision;
    const p = await predictThenApply([{ type: 'user-joins-position', userId: user('staff03'), positionId: position.get('Treasurer') }], () => setPositions(user('staff03'), ['Treasurer']));
    expect(p.invalidated).toEqual([]);
    expect(p.authorityGained).toHaveLength(2);
    expect(p.authorityGained).toEqual(expect.arrayContaining([holding('staff03', d1), holding('staff10', d1)]));
  });

  it('position-deleted: the POSITION_ONLY delegation (Recipient) and the one its holder issued from it (Issuer, Parent)', async () => {
    const { d1 } = decision;
    const ap = position.get('Accounts Payable Lead')!;
    const p = await predictThenApply([{ type: 'position-deleted', positionId: ap }], async () => {
      const res = await settings.delete('/settings/v1/positions', { token: h.tokens.admin, body: { ids: [ap] } });
      expect(res.status).toBe(200);
      await until(async () => (await h.db.query<{ is_deleted: boolean }>(`SELECT is_deleted FROM decision.position_projection WHERE id = $1`, [ap]))[0].is_deleted, 'the deleted position in the decision area', 20_000);
    });
    expect(p.invalidated.map((x) => [x.delegationId, x.invalidFields])).toEqual([
      [delegation.rAp.id, ['Recipient']],
      [delegation.cAp.id, ['Issuer', 'Parent']],
    ]);
    expect(p.authorityLost).toEqual(expect.arrayContaining([holding('staff04', d1), holding('staff11', d1)]));
  });

  it('group-moved: delegations scoped to the moved group fall outside their decision\'s groups (Groups), and the decision is left without a holder there', async () => {
    const { d3 } = decision;
    const toronto = group('Toronto Office');
    const p = await predictThenApply([{ type: 'group-moved', groupId: toronto, parentGroupIds: [group('Demo Co Europe')] }], async () => {
      const res = await settings.patch(`/settings/v1/groups/${toronto}`, { token: h.tokens.admin, body: { addParentGroupIds: [group('Demo Co Europe')], removeParentGroupIds: [group('Demo Co North America')] } });
      expect(res.status).toBe(200);
      await until(
        async () => (await h.db.query<{ p: string[] }>(`SELECT parent_group_ids AS p FROM decision.group_projection WHERE id = $1`, [toronto]))[0].p.join() === group('Demo Co Europe'),
        'the moved group in the decision area',
        20_000,
      );
    });
    expect(p.invalidated.map((x) => [x.delegationId, x.invalidFields])).toEqual([
      [delegation.r3Tor.id, ['Groups']],
      [delegation.r3Smt.id, ['Groups']],
    ]);
    expect(p.authorityLost).toEqual([holding('staff06', d3), holding('staff16', d3)].sort((a, b) => (a.userId < b.userId ? -1 : 1)));
    expect(p.decisionsWithoutHolder).toEqual([{ decisionId: d3, groupId: toronto }]);
  });

  it('manager-changed: the invalidation rules never check reach again, so nothing changes; the what-if says so and reality agrees', async () => {
    const staff13 = user('staff13');
    const p = await predictThenApply([{ type: 'manager-changed', userId: staff13, managerId: user('admin') }], async () => {
      const res = await auth.patch(`/auth/v1/user/update-entities/${staff13}`, { token: h.tokens.admin, body: { managerId: user('admin') } });
      expect(res.status).toBe(200);
      await until(async () => (await projectedUser(staff13)).manager_id === user('admin'), 'the new manager in the decision area', 20_000);
    });
    expect(p).toEqual({ invalidated: [], authorityLost: [], authorityGained: [], decisionsWithoutHolder: [] });
  });

  it('user-deactivated: their delegation (Recipient) and what they handed on (Issuer, Parent)', async () => {
    const { d1 } = decision;
    const staff06 = user('staff06');
    const p = await predictThenApply([{ type: 'user-deactivated', userId: staff06 }], async () => {
      const res = await auth.patch('/auth/v1/user/bulk-status-update', { token: h.tokens.admin, body: { tenantId: h.demo.id, userIds: [staff06], status: 'INACTIVE' } });
      expect(res.status).toBe(200);
      await until(async () => (await projectedUser(staff06)).status === 'INACTIVE', 'the deactivated user in the decision area', 20_000);
    });
    expect(p.invalidated.map((x) => [x.delegationId, x.invalidFields])).toEqual([
      [delegation.rSp.id, ['Recipient']],
      [delegation.cSp.id, ['Issuer', 'Parent']],
    ]);
    expect(p.authorityLost).toEqual(expect.arrayContaining([holding('staff06', d1), holding('staff13', d1)]));
  });

  it('decision-limit-changed: delegations above the new limit (Authority); a decision whose every holder is above it is left without a holder', async () => {
    const { d2 } = decision;
    const p = await predictThenApply([{ type: 'decision-limit-changed', decisionId: d2, authorityTypeId: approvalType, value: '50000' }], async () => {
      const res = await h.svc.http.patch(`/decision/v1/decisions/${d2}`, { token: h.tokens.admin, body: { decisionAuthorities: [approvalLimit(h, '50000')] } });
      expect(res.status).toBe(200);
    });
    expect(p.invalidated.map((x) => [x.delegationId, x.invalidFields])).toEqual([
      [delegation.r2.id, ['Authority']],
      [delegation.r2Pl.id, ['Authority']],
    ]);
    expect(p.authorityLost).toHaveLength(2);
    expect(p.decisionsWithoutHolder).toEqual([{ decisionId: d2, groupId: null }]);
  });

  it("group-deleted: delegations scoped to it, and to its children (settings republishes them without it), fall outside the decision's groups", async () => {
    const { d1 } = decision;
    const europe = group('Demo Co Europe');
    const p = await predictThenApply([{ type: 'group-deleted', groupId: europe }], async () => {
      const res = await settings.patch(`/settings/v1/groups/${europe}`, { token: h.tokens.admin, body: { isDeleted: true, disableOption: 'NA' } });
      expect(res.status).toBe(200);
      await until(async () => {
        const [row] = await h.db.query<{ deleted: boolean; children: number }>(
          `SELECT (SELECT is_deleted FROM decision.group_projection WHERE id = $1) AS deleted,
                  (SELECT count(*)::int FROM decision.group_projection WHERE $1 = ANY(parent_group_ids) AND NOT is_deleted) AS children`,
          [europe],
        );
        return row.deleted && row.children === 0;
      }, 'the deleted group and its children in the decision area', 20_000);
    });
    expect(p.invalidated.map((x) => [x.delegationId, x.invalidFields])).toEqual([
      [delegation.rSp.id, ['Recipient', 'Groups']],
      [delegation.cSp.id, ['Issuer', 'Groups', 'Parent']],
      [delegation.rLon.id, ['Groups']],
    ]);
    expect(p.authorityLost).toEqual([holding('staff17', d1)]);
  });

  it('several changes at once, each applied to what the one before left: people moving, a limit narrowed, a manager changed', async () => {
    const { d1 } = decision;
    const staff05 = user('staff05');
    const staff16 = user('staff16');
    const p = await predictThenApply(
      [
        { type: 'user-leaves-position', userId: staff05, positionId: position.get('Procurement Lead') },
        { type: 'user-joins-position', userId: staff05, positionId: position.get('Treasurer') },
        { type: 'decision-limit-changed', decisionId: d1, authorityTypeId: approvalType, value: '150000' },
        { type: 'manager-changed', userId: staff16, managerId: user('manager') },
      ],
      async () => {
        await setPositions(staff05, ['Treasurer']);
        const res = await h.svc.http.patch(`/decision/v1/decisions/${d1}`, { token: h.tokens.admin, body: { decisionAuthorities: [approvalLimit(h, '150000')] } });
        expect(res.status).toBe(200);
        expect((await auth.patch(`/auth/v1/user/update-entities/${staff16}`, { token: h.tokens.admin, body: { managerId: user('manager') } })).status).toBe(200);
        await until(async () => (await projectedUser(staff16)).manager_id === user('manager'), 'the new manager in the decision area', 20_000);
      },
    );
    expect(p.invalidated.map((x) => [x.delegationId, x.invalidFields])).toEqual([
      [delegation.rPip.id, ['Authority']],
      [delegation.cPip.id, ['Parent']],
      [delegation.rAp.id, ['Recipient', 'Authority']],
      [delegation.rSp.id, ['Recipient', 'Authority', 'Groups']],
      [delegation.rFin.id, ['Authority']],
      [delegation.r2Pl.id, ['Recipient', 'Authority']],
    ]);
    // staff03 keeps the decision through the Treasurer position; staff05, now a Treasurer, gains it.
    expect(p.authorityLost).toEqual(expect.arrayContaining([holding('staff10', d1), holding('staff14', d1)]));
    expect(p.authorityLost).toHaveLength(2);
    expect(p.authorityGained).toEqual([holding('staff05', d1)]);
  });

  it('400 naming the change and field: no changes or too many, an unknown type, a field missing or not taken, a type the decision does not hold, a change that changes nothing or makes a cycle', async () => {
    const post = (changes: unknown, token = h.tokens.auditor) => h.svc.http.post(WHAT_IF, { token, body: { changes } });
    const fields = async (changes: unknown) => {
      const res = await post(changes);
      expectErrorBody(res, 400);
      return (res.body.errors as { field: string }[]).map((e) => e.field);
    };
    const leave = { type: 'user-leaves-position', userId: user('staff03'), positionId: position.get('Treasurer') };
    const nobody = '0190a000-0000-7000-8000-00000000dead';
    expect(await fields([])).toContain('changes');
    expect(await fields(Array.from({ length: 101 }, () => leave))).toContain('changes');
    expect(await fields([leave, { type: 'user-promoted', userId: user('staff03') }])).toContain('changes.1.type');
    expect(await fields([{ type: 'user-leaves-position', userId: user('staff03') }])).toEqual(['changes.0.positionId']);
    expect(await fields([{ type: 'position-deleted', positionId: position.get('Treasurer'), decisionId: decision.d1 }])).toEqual(['changes.0.decisionId']);
    expect(await fields([{ ...leave, extra: 1 }])).toEqual(['changes.0.extra']);
    expect(await fields([{ type: 'group-moved', groupId: group('Finance'), parentGroupIds: Array.from({ length: 51 }, () => nobody) }])).toContain('changes.0.parentGroupIds');
    // A type of the tenant the decision does not hold: the records exist, the change makes no sense.
    expect(await fields([{ type: 'decision-limit-changed', decisionId: decision.d1, authorityTypeId: h.refs.authorityTypes.get('Signatory')!, value: '1' }])).toEqual(['changes.0.authorityTypeId']);
    expect(await fields([{ type: 'decision-limit-changed', decisionId: decision.d1, authorityTypeId: approvalType, value: '1e6' }])).toEqual(['changes.0.value']);
    expect(await fields([{ type: 'decision-limit-changed', decisionId: decision.d1, authorityTypeId: approvalType, value: '150000' }])).toEqual(['changes.0.value']); // its limit already
    // State the changes before it left: leaving a position the person does not hold (any more).
    expect(await fields([leave, leave])).toEqual(['changes.1.positionId']);
    // Settings refuses a cycle: North America under one of its own descendants.
    expect(await fields([{ type: 'group-moved', groupId: group('Demo Co North America'), parentGroupIds: [group('New York HQ')] }])).toEqual(['changes.0.parentGroupIds.0']);
  });

  it("404 naming the change and field: a person, position, group, decision or authority type that is not one of the tenant's live records (unknown, deleted, another tenant's)", async () => {
    const post = (changes: unknown, token = h.tokens.auditor) => h.svc.http.post(WHAT_IF, { token, body: { changes } });
    const fields = async (changes: unknown, token?: string) => {
      const res = await post(changes, token);
      expectErrorBody(res, 404);
      return (res.body.errors as { field: string }[]).map((e) => e.field);
    };
    const leave = { type: 'user-leaves-position', userId: user('staff03'), positionId: position.get('Treasurer') };
    const nobody = '0190a000-0000-7000-8000-00000000dead';
    expect(await fields([leave, leave, leave, { type: 'user-deactivated', userId: nobody }])).toEqual(['changes.3.userId']);
    const unknownUser = await post([{ type: 'user-deactivated', userId: nobody }]);
    expect(unknownUser.body.errors).toEqual([{ field: 'changes.0.userId', message: `User ${nobody} not found (not a live record of the tenant)` }]);
    // Another tenant's member is no one here.
    const otherAdmin = (await h.db.query<{ id: string }>(`SELECT id FROM decision.user_projection WHERE tenant_id = $1`, [h.other.id]))[0].id;
    expect(await fields([{ type: 'manager-changed', userId: user('staff13'), managerId: otherAdmin }])).toEqual(['changes.0.managerId']);
    expect(await fields([{ type: 'position-deleted', positionId: position.get('Accounts Payable Lead') }])).toEqual(['changes.0.positionId']); // deleted already
    expect(await fields([{ type: 'position-deleted', positionId: nobody }])).toEqual(['changes.0.positionId']);
    expect(await fields([{ type: 'group-deleted', groupId: nobody }])).toEqual(['changes.0.groupId']);
    expect(await fields([{ type: 'group-moved', groupId: group('Finance'), parentGroupIds: [group('Legal'), nobody] }])).toEqual(['changes.0.parentGroupIds.1']);
    expect(await fields([{ type: 'decision-limit-changed', decisionId: nobody, authorityTypeId: approvalType, value: '1' }])).toEqual(['changes.0.decisionId']);
    expect(await fields([{ type: 'decision-limit-changed', decisionId: decision.d1, authorityTypeId: nobody, value: '1' }])).toEqual(['changes.0.authorityTypeId']);
    // Several at once: each named, in the order of the changes.
    expect(await fields([{ type: 'user-deactivated', userId: nobody }, leave, { type: 'group-deleted', groupId: nobody }])).toEqual(['changes.0.userId', 'changes.2.groupId']);
    // Asked in the caller's own tenant, another tenant's records are unknown there.
    expect(await fields([leave], h.tokens.otherAdmin)).toEqual(['changes.0.userId', 'changes.0.positionId']);
    const otherDecision = await fields([{ type: 'decision-limit-changed', decisionId: decision.d1, authorityTypeId: approvalType, value: '1' }], h.tokens.otherAdmin);
    expect(otherDecision).toEqual(['changes.0.decisionId', 'changes.0.authorityTypeId']);
  });

  it('answers only members of the tenant holding view:decisions', async () => {
    const leave = { type: 'user-leaves-position', userId: user('staff03'), positionId: position.get('Treasurer') };
    expectErrorBody(await h.svc.http.post(WHAT_IF, { body: { changes: [leave] } }), 401);
    expectErrorBody(await h.svc.http.post(WHAT_IF, { token: h.tokens.otherAdmin, body: { tenantId: h.demo.id, changes: [leave] } }), 403);
    expect((await h.svc.http.post(WHAT_IF, { token: h.tokens.user, body: { changes: [leave] } })).status).toBe(200);
  });
});
