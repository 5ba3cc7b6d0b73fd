import { v7 as uuidv7 } from 'uuid';
import { startHarness } from '@ddm/testing';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';
import { DelegationRowSpec, insertDelegationRows } from './fixtures/decision-rows';

const CHECK = '/decision/v1/delegations/check-cascading-updates';
interface Affected {
  id: string;
  delegationDisplayId: string;
  depth: number;
  invalidFields: string[];
}

/**
 * check-cascading-updates at size (e2e, real Postgres): a tree of fan-out 10 three levels below its
 * root (1 + 10 + 100 + 1,000 = 1,111 delegations) and a chain 10 deep, written straight into the
 * table; the dry run answers exactly the descendants the proposal breaks, with their depth, and
 * changes nothing.
 */
describe('check-cascading-updates over a 1,111-delegation tree and a 10-deep chain (e2e)', () => {
  let h: DecisionHarness;
  let decisionId: string;
  let holder: string;
  let admin: string;
  const check = async (body: object) => {
    const res = await h.svc.http.patch(CHECK, { token: h.tokens.admin, body });
    expect(res.status).toBe(200);
    return res.body.data as { numberOfChildDelegationsInvalidated: number; childDelegationsInvalidated: boolean; childDelegationsAffected: Affected[] };
  };
  const displayIds = async (ids: string[]) =>
    new Map((await h.db.query<{ id: string; delegation_display_id: string }>(`SELECT id, delegation_display_id FROM decision.delegations WHERE id = ANY($1::uuid[])`, [ids])).map((r) => [r.id, r.delegation_display_id]));

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    admin = h.refs.users.get('admin@demo.test')!;
    holder = h.refs.users.get('manager@demo.test')!;
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name: 'Approve investments (cascading spec)', status: 'PUBLISHED', delegationPathway: ['Matrix', 'Direct Line'], decisionAuthorities: [approvalLimit(h, '1000000')] },
    });
    expect(res.status).toBe(200);
    decisionId = res.body.data.id;
  });
  afterAll(() => h?.close());

  it('fan-out 10, three levels below the root: narrowing the root answers exactly the children above it (Authority, depth 1) and their subtrees (Parent, depths 2 and 3)', async () => {
    // root 10,000; child i (0..9) 1,000 × (i + 1); each grandchild and great-grandchild a little under its parent.
    const rows: DelegationRowSpec[] = [];
    const add = (parentId: string | null, depth: number, value: number) => {
      const row: DelegationRowSpec = { id: uuidv7(), parentId, depth, issuerUserId: parentId ? holder : admin, recipientUserId: holder, value: String(value), redelegable: true };
      rows.push(row);
      return row;
    };
    const root = add(null, 0, 10_000);
    const children = Array.from({ length: 10 }, (_, i) => add(root.id, 1, 1000 * (i + 1)));
    const grandchildren = children.flatMap((c) => Array.from({ length: 10 }, (_, j) => add(c.id, 2, Number(c.value) - j)));
    const great = grandchildren.flatMap((g) => Array.from({ length: 10 }, (_, k) => add(g.id, 3, Number(g.value) - k)));
    expect(rows).toHaveLength(1111);
    await insertDelegationRows(h.db.query.bind(h.db), h.demo.id, h.refs, decisionId, rows);
    const display = await displayIds(rows.map((r) => r.id));

    const started = Date.now();
    const res = await check({ parentDelegationId: root.id, updatedDelegationAuthorities: [approvalLimit(h, '5500', { redelegable: true })] });
    const elapsed = Date.now() - started;
    // Children 6..10 (6,000 .. 10,000) exceed 5,500; everything below them breaks Parent.
    const broken = children.filter((c) => Number(c.value) > 5500);
    const below = (ids: Set<string>, level: DelegationRowSpec[]) => level.filter((r) => ids.has(r.parentId!));
    const brokenGrand = below(new Set(broken.map((c) => c.id)), grandchildren);
    const brokenGreat = below(new Set(brokenGrand.map((g) => g.id)), great);
    const want: Affected[] = [
      ...broken.map((r) => ({ id: r.id, delegationDisplayId: display.get(r.id)!, depth: 1, invalidFields: ['Authority'] })),
      ...brokenGrand.map((r) => ({ id: r.id, delegationDisplayId: display.get(r.id)!, depth: 2, invalidFields: ['Parent'] })),
      ...brokenGreat.map((r) => ({ id: r.id, delegationDisplayId: display.get(r.id)!, depth: 3, invalidFields: ['Parent'] })),
    ];
    expect(want).toHaveLength(5 + 50 + 500);
    const sortById = (xs: Affected[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
    expect(res.numberOfChildDelegationsInvalidated).toBe(555);
    expect(res.childDelegationsInvalidated).toBe(true);
    expect(sortById(res.childDelegationsAffected)).toEqual(sortById(want));
    // Shallowest first.
    expect(res.childDelegationsAffected.map((a) => a.depth)).toEqual([...res.childDelegationsAffected.map((a) => a.depth)].sort((a, b) => a - b));
    expect(elapsed).toBeLessThan(30_000); // a sanity bound, not the benchmark (npm run bench -- delegations)

    // A proposal that breaks nothing, and a pathway outside every child's: all 1,110 descendants, the children by Pathway.
    expect((await check({ parentDelegationId: root.id, updatedDelegationAuthorities: [approvalLimit(h, '10000', { redelegable: true })] })).numberOfChildDelegationsInvalidated).toBe(0);
    const pathway = await check({ parentDelegationId: root.id, updatedPathwayOptions: ['Direct Line'] });
    expect(pathway.numberOfChildDelegationsInvalidated).toBe(1110);
    expect(pathway.childDelegationsAffected.filter((a) => a.depth === 1).every((a) => a.invalidFields.join() === 'Pathway')).toBe(true);
    // A dry run: nothing was marked.
    const [{ n }] = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.delegations WHERE id = ANY($1::uuid[]) AND (is_invalid OR version > 1)`, [rows.map((r) => r.id)]);
    expect(n).toBe(0);
  }, 120_000);

  it('a chain 10 deep: narrowing the top answers its child (Authority, depth 1) and each one below at its own depth (Parent, 2..10)', async () => {
    const rows: DelegationRowSpec[] = [];
    let parent: DelegationRowSpec | null = null;
    for (let depth = 0; depth <= 10; depth++) {
      const row: DelegationRowSpec = { id: uuidv7(), parentId: parent?.id ?? null, depth, issuerUserId: parent ? holder : admin, recipientUserId: holder, value: String(10_000 - 100 * depth), redelegable: true };
      rows.push(row);
      parent = row;
    }
    await insertDelegationRows(h.db.query.bind(h.db), h.demo.id, h.refs, decisionId, rows);
    const display = await displayIds(rows.map((r) => r.id));
    const [top, ...chain] = rows;
    const res = await check({ parentDelegationId: top.id, updatedDelegationAuthorities: [approvalLimit(h, '9850', { redelegable: true })] });
    expect(res.childDelegationsAffected).toEqual(
      chain.map((r, i) => ({ id: r.id, delegationDisplayId: display.get(r.id)!, depth: i + 1, invalidFields: i === 0 ? ['Authority'] : ['Parent'] })),
    );
    // Narrowing the fifth link: only the five below it, depths 1..5 from it.
    const fifth = chain[4];
    const mid = await check({ parentDelegationId: fifth.id, updatedDelegationAuthorities: [approvalLimit(h, '9000', { redelegable: true })] });
    expect(mid.childDelegationsAffected.map((a) => [a.id, a.depth])).toEqual(chain.slice(5).map((r, i) => [r.id, i + 1]));
    expect(mid.childDelegationsAffected[0].invalidFields).toEqual(['Authority']);
  }, 60_000);
});
