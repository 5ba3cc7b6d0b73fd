import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { delegationEvent, startHarness } from '@ddm/testing';
import { GRID_SOURCES } from '../src/migrations/1766100000000-matrix-grid-versions';
import { matrixApp, MatrixHarness } from './fixtures/matrix-app';
import { announceAuthorityType, announceDecision, announcePosition } from './fixtures/announcements';

/**
 * Grid pages are kept (serialized) under the version of the tenant's grids and served again until
 * something they are read from changes: every kind of change must show in the very next answer.
 */
describe('matrix grid: kept pages are served until what they show changes (e2e, real Postgres and NATS)', () => {
  let h: MatrixHarness;
  let treasurer: string;
  let matrixId: string;
  const decisionId = randomUUID();
  const primary = (value: string) => ({
    authorityTypeId: '',
    authorityTypeOrder: 1,
    authorityLimit: 'Primary',
    authorityLimitValueType: 'Currency',
    authorityLimitOperator: '<',
    authorityLimitValue: value,
    authorityLimitValueUnit: 'USD',
  });
  let approval: string;
  let delegation: ReturnType<typeof delegationEvent>;

  const grid = async () => {
    const res = await h.svc.http.get(`/matrix/v1/matrix/${matrixId}/grid`, { token: h.tokens.admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return res.body as { statusCode: number; timestamp: string; message: string; data: { columns: any[]; rows: any[]; total: number } };
  };
  const version = async () =>
    Number((await h.db.query<{ v: string }>(`SELECT coalesce(max(version), 0) AS v FROM matrix.grid_versions WHERE tenant_id = $1`, [h.demo.id]))[0].v);
  const cellOf = (g: { data: { rows: any[] } }) => g.data.rows[0].cells.find((c: { columnId: string }) => c.columnId === treasurer).delegations;

  beforeAll(async () => {
    h = await startHarness(matrixApp);
    approval = await announceAuthorityType(h, h.demo.id, 'Approval');
    treasurer = await announcePosition(h, h.demo.id, 'Treasurer');
    await announceDecision(h, h.demo.id, { id: decisionId, decisionDisplayId: '10000', name: 'Pay invoices', authorities: [{ ...primary('1000000'), authorityTypeId: approval }] });
    const res = await h.svc.http.post('/matrix/v1/matrix', { token: h.tokens.admin, body: { matrixName: 'Kept pages', positionIds: [treasurer] } });
    expect(res.status).toBe(200);
    matrixId = res.body.data.id;
    delegation = delegationEvent(h.demo.id, {
      decisionId,
      recipientType: 'POSITION_ONLY',
      recipientPositionId: treasurer,
      status: 'ISSUED',
      version: 1,
      delegationDisplayId: '10000',
      authorities: [{ ...primary('500000'), authorityTypeId: approval }],
    });
    await h.publish('evt.decision.delegation.issued', delegation, async () => (await h.db.query(`SELECT 1 FROM matrix.delegation_projection WHERE delegation_id = $1`, [delegation.delegationId])).length > 0, 'the delegation');
  });
  afterAll(() => h?.close());

  it('answers a page asked again with the same data in a fresh envelope, compressed for a client that takes deflate', async () => {
    const first = await grid();
    const second = await grid();
    expect(second.data).toEqual(first.data);
    // fetch asks for gzip, deflate and br (and inflates); a client asking for none gets the same JSON as is.
    const compressed = await h.svc.http.get(`/matrix/v1/matrix/${matrixId}/grid`, { token: h.tokens.admin });
    expect(compressed.headers.get('content-encoding')).toBe('deflate');
    const identity = await h.svc.http.get(`/matrix/v1/matrix/${matrixId}/grid`, { token: h.tokens.admin, headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.body.data).toEqual(compressed.body.data);
    expect(Object.keys(second)).toEqual(['statusCode', 'timestamp', 'message', 'data']);
    expect(second).toMatchObject({ statusCode: 200, message: 'Matrix grid retrieved successfully' });
    expect(Date.parse(second.timestamp)).toBeGreaterThanOrEqual(Date.parse(first.timestamp));
    expect(cellOf(second)).toEqual([expect.objectContaining({ delegationId: delegation.delegationId, status: 'ISSUED' })]);
  });

  it('one applied event is one new version, however many tables its transaction writes (projection and history)', async () => {
    const before = await version();
    await h.publish(
      'evt.decision.delegation.updated',
      { ...delegation, status: 'SUSPENDED', version: 2 },
      async () => (await h.db.query(`SELECT 1 FROM matrix.delegation_projection WHERE delegation_id = $1 AND version >= 2`, [delegation.delegationId])).length > 0,
      'the suspension',
    );
    expect(await version()).toBe(before + 1);
    expect(cellOf(await grid())).toEqual([expect.objectContaining({ status: 'SUSPENDED' })]);
  });

  it('shows a renamed column, a renamed row, a changed limit and a changed matrix in the next answer', async () => {
    await grid();
    await h.publish(
      'evt.settings.position.updated',
      { tenantId: h.demo.id, position: { id: treasurer, positionName: 'Group Treasurer', positionId: '10000', status: 'ACTIVE', isDeleted: false, externalId: null, isSCIMProvisioned: false, groupIds: [] } },
      async () => (await h.db.query(`SELECT 1 FROM matrix.position_projection WHERE id = $1 AND position_name = 'Group Treasurer'`, [treasurer])).length > 0,
      'the renamed position',
    );
    expect((await grid()).data.columns).toEqual([{ id: treasurer, kind: 'position', name: 'Group Treasurer' }]);

    await announceDecision(h, h.demo.id, { id: decisionId, decisionDisplayId: '10000', name: 'Pay supplier invoices', version: 2, authorities: [{ ...primary('2000000'), authorityTypeId: approval }] });
    const renamed = await grid();
    expect(renamed.data.rows[0]).toMatchObject({ name: 'Pay supplier invoices', authorities: [expect.objectContaining({ value: '2000000' })] });

    const plain = cellOf(renamed)[0].formattedLimit;
    expect(plain).not.toBe('< 500K USD');
    const updated = await h.svc.http.put(`/matrix/v1/matrix/${matrixId}`, {
      token: h.tokens.admin,
      body: { matrixName: 'Kept pages', positionIds: [treasurer], matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes' } },
    });
    expect(updated.status).toBe(200);
    expect(cellOf(await grid())).toEqual([expect.objectContaining({ formattedLimit: '< 500K USD' })]);
  });

  it('every table a grid page is read from carries the version trigger', async () => {
    // The tables the grid's statements name (grid.sql.ts, grid.service.ts).
    // (Which matrix a caller sees is asked on every request, not kept: matrix.sql.ts is not among them.)
    const gridSql = ['grid/grid.sql.ts', 'grid/grid.service.ts'].map((f) => readFileSync(join(__dirname, '../src', f), 'utf8')).join('\n');
    const named = new Set([...gridSql.matchAll(/(?<=[\s(])matrix\.([a-z_]+)/g)].map((m) => m[1]));
    named.delete('grid_versions');
    named.delete('share_failures'); // the external link's password tries, not the grid
    expect([...named].filter((t) => !(GRID_SOURCES as readonly string[]).includes(t))).toEqual([]);
    const withTrigger = await h.db.query<{ table: string }>(
      `SELECT c.relname AS table FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'matrix' AND g.tgname = 'grid_version' AND g.tgdeferrable AND g.tginitdeferred`,
    );
    expect(withTrigger.map((r) => r.table).sort()).toEqual([...GRID_SOURCES].sort());
  });
});
