import { INestApplicationContext } from '@nestjs/common';
import { ALL_PERMISSION_KEYS, seedCaller } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { MatrixChangeDto } from './matrices/dto/matrix-change.dto';
import { MatricesService } from './matrices/matrices.service';
import { statusByName } from './core/matrix-status.rules';

export interface MatrixSeedResult {
  matrices: number;
}

/** How long the seed waits for the records matrices name to arrive through the events. */
const PROJECTIONS_TIMEOUT_MS = 60_000;

type Tenant = { id: string; name: string; users: { id: string; email: string; role: string }[] };

/**
 * Demo Co's matrices (other tenants get none): a Finance authority matrix by position, a board-level
 * one by group, a role matrix, a draft and an archived one; two shared, one with saved views. Safe to
 * run again (a matrix already there by name is kept). The users, groups, positions, sections and
 * decisions they name come from the other areas' events, so the seed first waits for the
 * projections; everything goes through the service.
 */
export async function seedMatrices(app: INestApplicationContext, tenant: Tenant, expected: { groups: number; decisions: number }): Promise<MatrixSeedResult> {
  const db = app.get(Db);
  if (tenant.name !== 'Demo Co') return countOf(db, tenant.id);
  await waitForProjections(db, tenant.id, { groups: expected.groups, decisions: expected.decisions, users: tenant.users.length });
  const idsOf = async (table: string, column: string) =>
    new Map((await db.query<{ id: string; name: string }>(`SELECT id, ${column} AS name FROM matrix.${table} WHERE tenant_id = $1 AND NOT is_deleted`, [tenant.id])).map((r) => [r.name, r.id]));
  const groups = await idsOf('group_projection', 'group_name');
  const positions = await idsOf('position_projection', 'position_name');
  const sections = await idsOf('section_projection', 'section_name');
  const userOf = (name: string) => tenant.users.find((u) => u.email === `${name}@demo.test`)!;
  const admin = userOf('admin');
  const caller = seedCaller(tenant.id, admin, ALL_PERMISSION_KEYS);
  const service = app.get(MatricesService);
  const some = (m: Map<string, string>, names: string[]) => names.map((n) => m.get(n)).filter((id): id is string => !!id);

  const matrices: (MatrixChangeDto & { savedViewBy?: string[] })[] = [
    {
      matrixName: 'Finance Authority Matrix',
      matrixDescription: 'Who approves spending in Finance, by position.',
      authorityMatrix: true,
      sectionIds: some(sections, ['Finance']),
      positionIds: some(positions, ['Chief Financial Officer', 'Financial Controller North America', 'Financial Controller Europe', 'Treasurer', 'Accounts Payable Lead']),
      matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes', valueRounding: '1' },
      matrixSharing: { type: 'SHARED', sharingOption: 'USERS_GROUPS', userIds: [userOf('user').id], groupIds: some(groups, ['Finance']) },
      savedViewBy: ['admin', 'user'],
    },
    {
      matrixName: 'Board-Level Matrix',
      matrixDescription: 'Authority held across the group, by organisation.',
      groupIds: some(groups, ['Demo Co Holdings', 'Demo Co North America', 'Demo Co Europe']),
      matrixSharing: { type: 'SHARED', sharingOption: 'USERS_GROUPS', userIds: [userOf('auditor').id], groupIds: [] },
    },
    {
      matrixName: 'Decision Role Matrix',
      matrixDescription: 'Decision roles across the tenant.',
      roleMatrix: true,
      authorityMatrix: false,
      matrixDelegation: { delegationRole: true, issuanceStatusNames: ['ISSUED'] },
    },
    { matrixName: 'Commercial Matrix (draft)', sectionIds: some(sections, ['Commercial']), matrixStatusId: statusByName('Draft').id },
    { matrixName: 'FY2025 Matrix (archived)', matrixStatusId: statusByName('Archived').id },
  ];
  for (const { savedViewBy, ...body } of matrices) {
    const [existing] = await db.query(`SELECT 1 FROM matrix.matrices WHERE tenant_id = $1 AND matrix_name = $2 AND NOT is_deleted`, [tenant.id, body.matrixName]);
    if (existing) continue;
    const created = await service.create(caller, body);
    for (const who of savedViewBy ?? []) {
      const user = userOf(who);
      await service.saveView(seedCaller(tenant.id, user, ALL_PERMISSION_KEYS), { matrixId: created.id, viewData: { collapsedSections: [], columnWidth: 180, showInvalid: true } });
    }
  }
  return countOf(db, tenant.id);
}

async function waitForProjections(db: Db, tenantId: string, expected: Record<string, number>): Promise<void> {
  const deadline = Date.now() + PROJECTIONS_TIMEOUT_MS;
  for (;;) {
    const [have] = await db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM matrix.group_projection WHERE tenant_id = $1 AND NOT is_deleted) AS groups,
              (SELECT count(*)::int FROM matrix.decision_projection WHERE tenant_id = $1 AND NOT is_deleted) AS decisions,
              (SELECT count(*)::int FROM matrix.user_projection WHERE tenant_id = $1 AND status <> 'DELETED') AS users`,
      [tenantId],
    );
    const missing = Object.keys(expected).filter((k) => have[k] < expected[k]);
    if (!missing.length) return;
    if (Date.now() > deadline) {
      throw new Error(`matrix seed: the projections still lack records after ${PROJECTIONS_TIMEOUT_MS} ms (${missing.map((k) => `${k} ${have[k]}/${expected[k]}`).join(', ')})`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function countOf(db: Db, tenantId: string): Promise<MatrixSeedResult> {
  const [row] = await db.query<{ matrices: number }>(`SELECT count(*)::int AS matrices FROM matrix.matrices WHERE tenant_id = $1 AND NOT is_deleted`, [tenantId]);
  return { matrices: row.matrices };
}
