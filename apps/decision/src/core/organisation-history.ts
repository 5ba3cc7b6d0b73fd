/**
 * The validity history the projections keep as auth's and settings' events change people and
 * structure: who held which position, who reported to whom, where each group sat and whether it
 * was live. Each change closes the open row (valid_to = now()) and opens the new one, in the
 * projection's transaction; a state that did not change keeps its row.
 */
import { Tx } from '@ddm/platform';

/** A person's positions from now on; answers those they left. */
export async function recordHoldings(tx: Tx, tenantId: string, userId: string, positionIds: readonly string[]): Promise<string[]> {
  const left = await tx.query<{ position_id: string }>(
    `UPDATE decision.position_holding_history SET valid_to = now()
      WHERE tenant_id = $1 AND user_id = $2 AND valid_to IS NULL AND NOT (position_id = ANY($3::uuid[]))
      RETURNING position_id`,
    [tenantId, userId, positionIds],
  );
  await tx.query(
    `INSERT INTO decision.position_holding_history (tenant_id, user_id, position_id)
     SELECT $1, $2, p FROM unnest($3::uuid[]) AS p
     ON CONFLICT (tenant_id, user_id, position_id) WHERE valid_to IS NULL DO NOTHING`,
    [tenantId, userId, positionIds],
  );
  return left.map((r) => r.position_id);
}

/** A person's manager from now on (null: none); answers whether it changed. */
export async function recordManager(tx: Tx, tenantId: string, userId: string, managerId: string | null): Promise<boolean> {
  const [open] = await tx.query<{ manager_id: string | null }>(`SELECT manager_id FROM decision.manager_history WHERE tenant_id = $1 AND user_id = $2 AND valid_to IS NULL`, [tenantId, userId]);
  if (open && open.manager_id === managerId) return false;
  if (open) await tx.query(`UPDATE decision.manager_history SET valid_to = now() WHERE tenant_id = $1 AND user_id = $2 AND valid_to IS NULL`, [tenantId, userId]);
  await tx.query(`INSERT INTO decision.manager_history (tenant_id, user_id, manager_id) VALUES ($1, $2, $3)`, [tenantId, userId, managerId]);
  return true;
}

/** A group's parents and whether it is live (not deleted, ACTIVE) from now on; answers whether its liveness changed (a new group: it did). */
export async function recordGroup(tx: Tx, tenantId: string, groupId: string, parentGroupIds: readonly string[], live: boolean): Promise<boolean> {
  const parents = [...parentGroupIds].sort();
  const [open] = await tx.query<{ parent_group_ids: string[]; live: boolean }>(
    `SELECT parent_group_ids, live FROM decision.group_history WHERE tenant_id = $1 AND group_id = $2 AND valid_to IS NULL`,
    [tenantId, groupId],
  );
  if (open && open.live === live && [...open.parent_group_ids].sort().join() === parents.join()) return false;
  if (open) await tx.query(`UPDATE decision.group_history SET valid_to = now() WHERE tenant_id = $1 AND group_id = $2 AND valid_to IS NULL`, [tenantId, groupId]);
  await tx.query(`INSERT INTO decision.group_history (tenant_id, group_id, parent_group_ids, live) VALUES ($1, $2, $3, $4)`, [tenantId, groupId, parents, live]);
  return open?.live !== live;
}
