import { randomUUID } from 'node:crypto';
import { DelegationEvent } from '@ddm/contracts';
import { delegationEvent, expectErrorBody, startHarness, until } from '@ddm/testing';
import { Workbook } from 'exceljs';
import { matrixApp, MatrixHarness } from './fixtures/matrix-app';
import { announceAuthorityType, announceCategory, announceDecision, announceGroup, announcePosition, announceSection } from './fixtures/announcements';

/** A minimal RFC 4180 reader (quoted fields with commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('matrix grid: cells from published delegation events, ?at=, CSV/XLSX export and external links (e2e, real Postgres and NATS)', () => {
  let h: MatrixHarness;
  let approval: string;
  let cfo: string;
  let controller: string;
  let holder: string;
  const d1 = randomUUID();
  const d2 = randomUUID();
  let byHolders: Record<string, any>;
  let byPositions: Record<string, any>;
  let deleg1: DelegationEvent;
  let deleg2: DelegationEvent;
  let beforeAny: string;
  let whileIssued: string;
  let whileSuspended: string;

  const grid = async (id: string, qs = '', token = h.tokens.admin) => {
    const res = await h.svc.http.get(`/matrix/v1/matrix/${id}/grid${qs}`, { token });
    expect(res.status).toBe(200);
    return res.body.data as { columns: { id: string; kind: string; name: string }[]; rows: any[]; page: number; limit: number; total: number };
  };
  const cell = (g: { rows: any[] }, decisionId: string, columnId: string) =>
    (g.rows.find((r) => r.decisionId === decisionId)?.cells.find((c: { columnId: string }) => c.columnId === columnId)?.delegations ?? null) as any[] | null;
  const delegationState = (id: string, version: number) => async () =>
    (await h.db.query(`SELECT 1 FROM matrix.delegation_projection WHERE delegation_id = $1 AND version >= $2`, [id, version])).length > 0;
  const tick = async () => {
    // Two instants the history tells apart (its rows are stamped by the applying transaction).
    const t = new Date().toISOString();
    await until(async () => Date.now() > Date.parse(t) + 5, 'the clock to move on');
    return t;
  };

  beforeAll(async () => {
    h = await startHarness(matrixApp);
    approval = await announceAuthorityType(h, h.demo.id, 'Approval');
    cfo = await announcePosition(h, h.demo.id, 'CFO');
    controller = await announcePosition(h, h.demo.id, 'Controller');
    holder = h.users.get('user@demo.test')!;
    const section = await announceSection(h, h.demo.id, 'Finance');
    const category = await announceCategory(h, h.demo.id, 'Spending', section);
    const primary = { authorityTypeId: approval, authorityTypeOrder: 1, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<', authorityLimitValue: '1000000', authorityLimitValueUnit: 'USD' };
    await announceDecision(h, h.demo.id, { id: d1, decisionDisplayId: '10000', name: 'Approve spend', sectionId: section, categoryId: category, authorities: [primary] });
    await announceDecision(h, h.demo.id, { id: d2, decisionDisplayId: '10001', name: 'Zign contracts' });
    const create = async (body: object) => {
      const res = await h.svc.http.post('/matrix/v1/matrix', { token: h.tokens.admin, body });
      expect(res.status).toBe(200);
      return res.body.data;
    };
    byHolders = await create({ matrixName: 'Finance, Q1', matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes' } });
    byPositions = await create({ matrixName: 'By position', positionIds: [cfo, controller], matrixDelegation: { issuanceStatusNames: ['ISSUED'] } });
    deleg1 = delegationEvent(h.demo.id, {
      delegationId: randomUUID(),
      decisionId: d1,
      recipientType: 'POSITION_ONLY',
      recipientPositionId: cfo,
      status: 'ISSUED',
      version: 1,
      delegationDisplayId: '10000',
      authorities: [{ ...primary, authorityLimitValue: '500000' }],
    });
    deleg2 = delegationEvent(h.demo.id, { delegationId: randomUUID(), decisionId: d2, recipientType: 'SPECIFIC_PERSONNEL', recipientUserId: holder, status: 'ISSUED', version: 1, delegationDisplayId: '10001', pathways: ['Functional'] });
  });
  afterAll(() => h?.close());

  it('rows are the matrix’s decisions by section and category with their authorities; no delegations yet: no holder columns', async () => {
    beforeAny = await tick();
    const g = await grid(byHolders.id);
    expect(g).toMatchObject({ page: 1, limit: 50, total: 2, columns: [] });
    expect(g.rows.map((r) => [r.decisionDisplayId, r.name, r.sectionName, r.categoryName])).toEqual([
      ['10000', 'Approve spend', 'Finance', 'Spending'],
      ['10001', 'Zign contracts', null, null],
    ]);
    expect(g.rows[0].authorities).toEqual([
      { authorityTypeId: approval, authorityType: 'Approval', authorityLimit: 'Primary', value: '1000000', unit: 'USD', operator: '<', formattedLimit: '< 1M USD' },
    ]);
    const chosen = await grid(byPositions.id);
    expect(chosen.columns).toEqual([
      { id: cfo, kind: 'position', name: 'CFO' },
      { id: controller, kind: 'position', name: 'Controller' },
    ]);
    expect(cell(chosen, d1, cfo)).toEqual([]);
  });

  it('issuing delegations fills the cells (limit formatted by the matrix, pathway, status, display id); counts follow', async () => {
    await h.publish('evt.decision.delegation.issued', deleg1, delegationState(deleg1.delegationId, 1), 'd1 issued');
    await h.publish('evt.decision.delegation.issued', deleg2, delegationState(deleg2.delegationId, 1), 'd2 issued');
    const g = await grid(byHolders.id);
    expect(g.columns).toEqual([
      { id: cfo, kind: 'position', name: 'CFO' },
      { id: holder, kind: 'user', name: expect.any(String) },
    ]);
    expect(cell(g, d1, cfo)).toEqual([
      {
        delegationId: deleg1.delegationId,
        delegationDisplayId: '10000',
        authorityTypeId: approval,
        authorityType: 'Approval',
        value: '500000',
        unit: 'USD',
        operator: '<',
        formattedLimit: '< 500K USD',
        pathway: 'Direct Line',
        status: 'ISSUED',
        isInvalid: false,
      },
    ]);
    expect(cell(g, d1, holder)).toEqual([]);
    expect(cell(g, d2, holder)).toEqual([expect.objectContaining({ delegationId: deleg2.delegationId, pathway: 'Functional', formattedLimit: '', status: 'ISSUED' })]);
    expect(cell(await grid(byPositions.id), d1, cfo)).toHaveLength(1);
    const m = (await h.svc.http.get(`/matrix/v1/matrix/${byHolders.id}`, { token: h.tokens.admin })).body.data;
    expect(m).toMatchObject({ decisionCount: 2, delegationCount: 2, suspendedDelegationsCount: 0, pendingDelegationsCount: 0 });
    whileIssued = await tick();
  });

  it('suspending changes the cell, and the matrix’s own status filter hides it; revoking empties it', async () => {
    await h.publish('evt.decision.delegation.updated', { ...deleg1, status: 'SUSPENDED', version: 2 }, delegationState(deleg1.delegationId, 2), 'd1 suspended');
    expect(cell(await grid(byHolders.id), d1, cfo)).toEqual([expect.objectContaining({ status: 'SUSPENDED' })]);
    expect(cell(await grid(byPositions.id), d1, cfo)).toEqual([]); // issuanceStatusNames: ISSUED only
    expect((await h.svc.http.get(`/matrix/v1/matrix/${byHolders.id}`, { token: h.tokens.admin })).body.data).toMatchObject({ delegationCount: 2, suspendedDelegationsCount: 1 });
    whileSuspended = await tick();

    await h.publish('evt.decision.delegation.revoked', { ...deleg1, status: 'REVOKED', version: 3 }, delegationState(deleg1.delegationId, 3), 'd1 revoked');
    const g = await grid(byHolders.id);
    expect(g.columns.map((c) => c.id)).toEqual([holder]); // the CFO holds nothing now
    expect(cell(await grid(byPositions.id), d1, cfo)).toEqual([]);
    // An older event redelivered after the revocation changes nothing.
    await h.publish('evt.decision.delegation.updated', { ...deleg1, status: 'ISSUED', version: 2 }, async () => true, 'redelivery');
    await until(async () => (await h.db.query(`SELECT 1 FROM matrix.processed_messages WHERE consumer = 'matrix-decision-delegations'`)).length >= 5, 'the redelivered event handled');
    expect((await grid(byHolders.id)).columns.map((c) => c.id)).toEqual([holder]);
  });

  it('?at= answers the grid as it stood: before anything, while issued, while suspended, now', async () => {
    expect((await grid(byHolders.id, `?at=${encodeURIComponent(beforeAny)}`)).columns).toEqual([]);
    const issued = await grid(byHolders.id, `?at=${encodeURIComponent(whileIssued)}`);
    expect(cell(issued, d1, cfo)).toEqual([expect.objectContaining({ delegationId: deleg1.delegationId, status: 'ISSUED', formattedLimit: '< 500K USD' })]);
    const suspended = await grid(byHolders.id, `?at=${encodeURIComponent(whileSuspended)}`);
    expect(cell(suspended, d1, cfo)).toEqual([expect.objectContaining({ status: 'SUSPENDED' })]);
    expect(cell(await grid(byPositions.id, `?at=${encodeURIComponent(whileIssued)}`), d1, cfo)).toHaveLength(1);
    expect(cell(await grid(byPositions.id, `?at=${encodeURIComponent(whileSuspended)}`), d1, cfo)).toEqual([]);
    const bad = await h.svc.http.get(`/matrix/v1/matrix/${byHolders.id}/grid?at=yesterday`, { token: h.tokens.admin });
    expectErrorBody(bad, 400);
    expect(bad.body.errors[0].field).toBe('at');
  });

  it('paged by rows (limit ≤ 100); 404 for another tenant; 400 for limit 101', async () => {
    const first = await grid(byHolders.id, '?page=1&limit=1');
    expect(first).toMatchObject({ page: 1, limit: 1, total: 2 });
    expect(first.rows.map((r) => r.decisionId)).toEqual([d1]);
    expect((await grid(byHolders.id, '?page=2&limit=1')).rows.map((r) => r.decisionId)).toEqual([d2]);
    const tooMany = await h.svc.http.get(`/matrix/v1/matrix/${byHolders.id}/grid?limit=101`, { token: h.tokens.admin });
    expectErrorBody(tooMany, 400);
    expectErrorBody(await h.svc.http.get(`/matrix/v1/matrix/${byHolders.id}/grid`, { token: h.tokens.otherAdmin }), 404);
    expectErrorBody(await h.svc.http.get(`/matrix/v1/matrix/${byHolders.id}/export?format=csv`, { token: h.tokens.otherAdmin }), 404);
    expectErrorBody(await h.svc.http.get(`/matrix/v1/matrix/${byHolders.id}/grid`, { token: h.tokens.user }), 404); // private to the admin
  });

  it('CSV and XLSX exports hold the same cells (as of a date too), with a download name', async () => {
    const at = encodeURIComponent(whileIssued);
    const csvRes = await fetch(`${h.svc.url}/matrix/v1/matrix/${byHolders.id}/export?format=csv&at=${at}`, { headers: { authorization: `Bearer ${h.tokens.admin}` } });
    expect(csvRes.status).toBe(200);
    expect(csvRes.headers.get('content-type')).toContain('text/csv');
    expect(csvRes.headers.get('content-disposition')).toMatch(/^attachment; filename="Finance-Q1-as-of-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = parseCsv(await csvRes.text());
    expect(csv[0]).toEqual(['Section', 'Category', 'Decision ID', 'Decision', 'CFO', expect.any(String)]);
    expect(csv.slice(1).map((r) => r.slice(0, 4))).toEqual([
      ['Finance', 'Spending', '10000', 'Approve spend'],
      ['', '', '10001', 'Zign contracts'],
    ]);
    expect(csv[1][4]).toBe('< 500K USD Approval (Direct Line, ISSUED) #10000');
    expect(csv[2][5]).toBe('(Functional, ISSUED) #10001');

    const xlsxRes = await fetch(`${h.svc.url}/matrix/v1/matrix/${byHolders.id}/export?format=xlsx&at=${at}`, { headers: { authorization: `Bearer ${h.tokens.admin}` } });
    expect(xlsxRes.status).toBe(200);
    expect(xlsxRes.headers.get('content-disposition')).toMatch(/\.xlsx"$/);
    const book = new Workbook();
    await book.xlsx.load(Buffer.from(await xlsxRes.arrayBuffer()) as never);
    expect(book.worksheets).toHaveLength(1);
    const sheet = book.worksheets[0];
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const values: string[][] = [];
    sheet.eachRow((row) => values.push(Array.from(row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
    expect(values[0]).toEqual(csv[0]);
    // Decision rows (those with a decision id) hold the same fields as the CSV's rows; headings group them by section and category.
    const decisionRows = values.slice(1).filter((r) => r[2]);
    const pad = (r: string[]) => [...r, ...Array(csv[0].length - r.length).fill('')];
    expect(decisionRows.map(pad)).toEqual(csv.slice(1));
    expect(values.slice(1).filter((r) => !r[2]).map((r) => r.join('|'))).toEqual(['Finance', '|Spending', '(No section)', '|(No category)']);
  });

  it('external link: an unguessable token, read-only grid and export without a bearer token; password by header, hashed; nothing else reachable', async () => {
    const put = await h.svc.http.put(`/matrix/v1/matrix/${byHolders.id}`, {
      token: h.tokens.admin,
      body: { matrixName: 'Finance, Q1', matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes' }, matrixExternalSharing: { isEnabled: true, isPasswordRequired: true, password: 'correct horse' } },
    });
    expect(put.status).toBe(200);
    const ext = put.body.data.matrixExternalSharing;
    expect(ext).toMatchObject({ isEnabled: true, isPasswordRequired: true, isExpirationEnabled: false, expirationDate: null });
    expect(ext.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    expect(ext.link).toMatch(new RegExp(`^https?://.+/matrix/v1/shared/${ext.token}$`));
    expect(put.body.data.matrixSharing.externalSharing).toBe(true);
    const [stored] = await h.db.query<{ ext_password_hash: string }>(`SELECT ext_password_hash FROM matrix.matrices WHERE id = $1`, [byHolders.id]);
    expect(stored.ext_password_hash).toMatch(/^scrypt\$/);
    expect(stored.ext_password_hash).not.toContain('correct horse');

    const shared = (path = '', headers: Record<string, string> = {}) => h.svc.http.get(`/matrix/v1/shared/${ext.token}${path}`, { headers });
    expectErrorBody(await shared(), 401);
    expectErrorBody(await shared('', { 'x-share-password': 'wrong password' }), 401);
    const ok = await shared('?limit=1', { 'x-share-password': 'correct horse' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.matrix).toEqual({ id: byHolders.id, matrixId: byHolders.matrixId, matrixName: 'Finance, Q1', matrixDescription: null, matrixStatus: expect.objectContaining({ statusName: 'Active' }) });
    expect(ok.body.data.grid).toMatchObject({ page: 1, limit: 1, total: 2 });
    expect(ok.body.data.grid.rows[0].decisionId).toBe(d1);
    const csv = await fetch(`${h.svc.url}/matrix/v1/shared/${ext.token}/export?format=csv`, { headers: { 'x-share-password': 'correct horse' } });
    expect(csv.status).toBe(200);
    expect(parseCsv(await csv.text())[0].slice(0, 4)).toEqual(['Section', 'Category', 'Decision ID', 'Decision']);

    // Nothing else answers without a bearer token, password or not.
    for (const path of [`/matrix/v1/matrix/${byHolders.id}`, `/matrix/v1/matrix/${byHolders.id}/grid`, `/matrix/v1/matrix/${byHolders.id}/export`, '/matrix/v1/matrix/statuses']) {
      expectErrorBody(await h.svc.http.get(path, { headers: { 'x-share-password': 'correct horse' } }), 401);
    }
    expectErrorBody(await h.svc.http.post('/matrix/v1/matrix/global-search', { body: {}, headers: { 'x-share-password': 'correct horse' } }), 401);
    expectErrorBody(await h.svc.http.get(`/matrix/v1/shared/${'A'.repeat(43)}`), 404);
    expectErrorBody(await h.svc.http.get(`/matrix/v1/shared/short`), 404);

    // Disabling the link stops it at once.
    const off = await h.svc.http.put(`/matrix/v1/matrix/${byHolders.id}`, { token: h.tokens.admin, body: { matrixName: 'Finance, Q1' } });
    expect(off.body.data.matrixExternalSharing).toMatchObject({ isEnabled: false, link: null, token: null });
    expectErrorBody(await shared('', { 'x-share-password': 'correct horse' }), 404);
  });

  it('external link: expiry is enforced; 10 wrong passwords per link per 15 minutes, then 429 with Retry-After', async () => {
    const expired = await h.svc.http.put(`/matrix/v1/matrix/${byPositions.id}`, {
      token: h.tokens.admin,
      body: { matrixName: 'By position', positionIds: [cfo, controller], matrixExternalSharing: { isEnabled: true, isExpirationEnabled: true, expirationDate: '2020-01-01T00:00:00.000Z' } },
    });
    expect(expired.status).toBe(200);
    const token = expired.body.data.matrixExternalSharing.token as string;
    expectErrorBody(await h.svc.http.get(`/matrix/v1/shared/${token}`), 404);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const open = await h.svc.http.put(`/matrix/v1/matrix/${byPositions.id}`, {
      token: h.tokens.admin,
      body: { matrixName: 'By position', positionIds: [cfo, controller], matrixExternalSharing: { isEnabled: true, isExpirationEnabled: true, expirationDate: future, isPasswordRequired: true, password: 'another secret' } },
    });
    expect(open.body.data.matrixExternalSharing.token).toBe(token); // the link stays while enabled
    expect((await h.svc.http.get(`/matrix/v1/shared/${token}`, { headers: { 'x-share-password': 'another secret' } })).status).toBe(200);
    for (let i = 0; i < 10; i++) expectErrorBody(await h.svc.http.get(`/matrix/v1/shared/${token}`, { headers: { 'x-share-password': `guess ${i}` } }), 401);
    const limited = await h.svc.http.get(`/matrix/v1/shared/${token}`, { headers: { 'x-share-password': 'another secret' } });
    expectErrorBody(limited, 429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
  it('?at= also answers the rows as they stood: a decision published later is not in the grid of before', async () => {
    const before = await tick();
    const d3 = randomUUID();
    await announceDecision(h, h.demo.id, { id: d3, decisionDisplayId: '10002', name: 'Approve hires' });
    const now = await grid(byHolders.id);
    expect(now.total).toBe(3);
    expect(now.rows.map((r) => r.decisionId)).toContain(d3);
    const then = await grid(byHolders.id, `?at=${encodeURIComponent(before)}`);
    expect(then.total).toBe(2);
    expect(then.rows.map((r) => r.decisionId)).toEqual([d1, d2]);
    // Unpublished again (a newer version): it leaves the grid now, and stays in the grid of while it was published.
    const published = await tick();
    await h.publish(
      'evt.decision.decision.updated',
      { tenantId: h.demo.id, decision: { id: d3, decisionDisplayId: '10002', name: 'Approve hires', status: 'ARCHIVED', sectionId: null, categoryId: null, ownerId: null, delegable: true, delegationPathway: [], groupIds: [], authorities: [], isDeleted: false, version: 2 } },
      async () => (await h.db.query(`SELECT 1 FROM matrix.decision_projection WHERE id = $1 AND version = 2`, [d3])).length > 0,
      'd3 archived',
    );
    expect((await grid(byHolders.id)).total).toBe(2);
    expect((await grid(byHolders.id, `?at=${encodeURIComponent(published)}`)).total).toBe(3);
  });

  it('a matrix naming users and groups: each column holds what is held there (by user, by group), now and ?at=; what is held only elsewhere, or has a status it does not show, is in no cell', async () => {
    const team = await announceGroup(h, h.demo.id, 'Treasury team');
    const auditor = h.users.get('auditor@demo.test')!;
    const created = await h.svc.http.post('/matrix/v1/matrix', {
      token: h.tokens.admin,
      body: { matrixName: 'By people', userIds: [holder], groupIds: [team], matrixDelegation: { issuanceStatusNames: ['ISSUED'] } },
    });
    expect(created.status).toBe(200);
    const byPeople = created.body.data;
    const inTeam = delegationEvent(h.demo.id, { decisionId: d1, recipientUserId: auditor, groupIds: [team], status: 'ISSUED', version: 1, delegationDisplayId: '10003' });
    const suspendedInTeam = delegationEvent(h.demo.id, { decisionId: d2, recipientUserId: auditor, groupIds: [team], status: 'SUSPENDED', version: 1, delegationDisplayId: '10004' });
    const elsewhere = delegationEvent(h.demo.id, { decisionId: d1, recipientType: 'POSITION_ONLY', recipientPositionId: controller, status: 'ISSUED', version: 1, delegationDisplayId: '10005' });
    for (const e of [inTeam, suspendedInTeam, elsewhere]) await h.publish('evt.decision.delegation.issued', e, delegationState(e.delegationId, 1), `${e.delegationDisplayId} issued`);
    const after = await tick();
    for (const g of [await grid(byPeople.id), await grid(byPeople.id, `?at=${encodeURIComponent(after)}`)]) {
      expect(g.columns.map((c) => [c.kind, c.id])).toEqual([
        ['user', holder],
        ['group', team],
      ]);
      expect(cell(g, d2, holder)!.map((e) => e.delegationId)).toEqual([deleg2.delegationId]);
      expect(cell(g, d1, team)!.map((e) => e.delegationId)).toEqual([inTeam.delegationId]);
      const shown = g.rows.flatMap((r) => r.cells.flatMap((c: { delegations: { delegationId: string }[] }) => c.delegations.map((e) => e.delegationId)));
      expect(shown).not.toContain(elsewhere.delegationId);
      expect(shown).not.toContain(suspendedInTeam.delegationId);
    }
    expect(cell(await grid(byPositions.id), d1, controller)!.map((e) => e.delegationId)).toEqual([elsewhere.delegationId]);
  });
});
