/**
 * Checks several resources make of records another resource keeps: that the ids a change names are
 * live records of the tenant (not deleted), locked FOR SHARE so that a delete of the same record at
 * the same moment waits for the change, or the change waits and sees it deleted.
 */
import { missingIds, missingIdsError, notFound } from '@ddm/contracts';
import { Tx, sql } from '@ddm/platform';

/**
 * Every id is a group of the tenant that is not deleted (404 naming the others, each with its
 * `field.index`). Locked FOR SHARE: a group being deleted at the same moment (and losing its
 * links) waits for this change, or this waits and sees it deleted.
 */
export async function requireLiveGroups(tx: Tx, tenantId: string, ids: readonly string[], error: { what: string; field: string; asked: readonly string[] }): Promise<void> {
  if (!ids.length) return;
  const found = await tx.query<{ id: string }>(
    sql`SELECT id FROM settings.groups WHERE tenant_id = ${tenantId} AND id = ANY(${ids}::uuid[]) AND NOT is_deleted ORDER BY id FOR SHARE`,
  );
  const missing = missingIds(ids, found.map((r) => r.id));
  if (missing.length) throw missingIdsError({ what: error.what, field: error.field, asked: error.asked, missing });
}

/**
 * The id names a decision section of the tenant that is not deleted: else a 404 naming it, with the
 * request field that carried it in `errors`. Locked FOR SHARE: a delete of the section at the
 * same moment waits for this change (and then takes the category out of it), or this waits
 * and sees it deleted.
 */
export async function requireLiveSection(tx: Tx, tenantId: string, id: string, field: string): Promise<void> {
  const [found] = await tx.query(`SELECT 1 FROM settings.decision_sections WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR SHARE`, [id, tenantId]);
  if (!found) {
    const message = `Decision section ${id} not found`;
    throw notFound(message, [{ field, message }]);
  }
}
