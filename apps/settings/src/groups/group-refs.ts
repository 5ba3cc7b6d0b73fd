import { Injectable } from '@nestjs/common';
import { EventSubject, missingIds, missingIdsError } from '@ddm/contracts';
import { Sql, Tx, sql } from '@ddm/platform';
import { groupPayloads } from './group.sql';

type GroupSubject = Extract<EventSubject, `evt.settings.group.${string}`>;

/**
 * What other resources (and the groups' own service) ask of groups: that ids name live groups of
 * the tenant, and the groups' events after a change that touched them.
 */
@Injectable()
export class GroupRefs {
  /**
   * Every id is a group of the tenant that is not deleted (404 naming the others, each with its
   * `field.index`). Locked FOR SHARE: a group being deleted at the same moment (and losing its
   * links) waits for this change, or this waits and sees it deleted.
   */
  async requireLive(tx: Tx, tenantId: string, ids: readonly string[], error: { what: string; field: string; asked: readonly string[] }): Promise<void> {
    if (!ids.length) return;
    const found = await tx.query<{ id: string }>(
      sql`SELECT id FROM settings.groups WHERE tenant_id = ${tenantId} AND id = ANY(${ids}::uuid[]) AND NOT is_deleted ORDER BY id FOR SHARE`,
    );
    const missing = missingIds(ids, found.map((r) => r.id));
    if (missing.length) throw missingIdsError({ what: error.what, field: error.field, asked: error.asked, missing });
  }

  /** Queues `subject` for each of the tenant's groups named (as they are now, in this transaction). */
  publish(tx: Tx, tenantId: string, subject: GroupSubject, ids: readonly string[]): Promise<void> {
    if (!ids.length) return Promise.resolve();
    return this.publishWhere(tx, tenantId, subject, sql`g.id = ANY(${ids}::uuid[])`);
  }

  /** Queues `subject` for each of the tenant's groups matching `condition` (over g and its type t). */
  async publishWhere(tx: Tx, tenantId: string, subject: GroupSubject, condition: Sql): Promise<void> {
    const groups = await groupPayloads(tx, tenantId, condition);
    await tx.publishMany(subject, groups.map((group) => ({ tenantId, group })));
  }
}
