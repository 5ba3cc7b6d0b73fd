/**
 * The groups' events, published by whichever resource changed what they carry: groups themselves,
 * and group types (a group's event carries its type's name). One mapper of a group's payload.
 */
import { EventSubject, GroupPayload } from '@ddm/contracts';
import { Queryable, Sql, Tx, sql } from '@ddm/platform';

type GroupSubject = Extract<EventSubject, `evt.settings.group.${string}`>;

interface PayloadRow {
  id: string;
  group_code: string;
  group_name: string;
  display_name: string | null;
  tenant_group_type_id: string;
  group_type_name: string;
  status: string;
  is_deleted: boolean;
  external_id: string | null;
  instance_id: string | null;
  legal_name: string | null;
  base_currency: string | null;
  parent_ids: string[];
}

/**
 * Event payloads of the tenant's groups matching `condition` (over g and t), in one statement.
 * `parentGroupIds` lists the parents the view shows (not deleted).
 */
async function groupPayloads(q: Queryable, tenantId: string, condition: Sql): Promise<GroupPayload[]> {
  const rows = await q.query<PayloadRow>(sql`
    SELECT g.id, g.group_code, g.group_name, g.display_name, g.tenant_group_type_id, t.group_type_name, g.status, g.is_deleted,
           g.external_id, g.instance_id, g.legal_name, g.base_currency,
           ARRAY(SELECT l.parent_id::text FROM settings.group_parents l JOIN settings.groups pg ON pg.id = l.parent_id AND NOT pg.is_deleted
                  WHERE l.group_id = g.id ORDER BY l.created_at, l.id) AS parent_ids
      FROM settings.groups g JOIN settings.group_types t ON t.id = g.tenant_group_type_id
     WHERE g.tenant_id = ${tenantId} AND ${condition}
     ORDER BY g.id`);
  return rows.map((r) => ({
    id: r.id,
    groupId: r.group_code,
    groupName: r.group_name,
    displayName: r.display_name,
    tenantGroupTypeId: r.tenant_group_type_id,
    tenantGroupTypeName: r.group_type_name,
    status: r.status,
    isDeleted: r.is_deleted,
    externalId: r.external_id,
    instanceId: r.instance_id,
    legalName: r.legal_name,
    baseCurrency: r.base_currency,
    parentGroupIds: r.parent_ids,
  }));
}

/** Queues `subject` for each of the tenant's groups named (as they are now, in this transaction). */
export function publishGroups(tx: Tx, tenantId: string, subject: GroupSubject, ids: readonly string[]): Promise<void> {
  if (!ids.length) return Promise.resolve();
  return publishGroupsWhere(tx, tenantId, subject, sql`g.id = ANY(${ids}::uuid[])`);
}

/** Queues `subject` for each of the tenant's groups matching `condition` (over g and its type t). */
export async function publishGroupsWhere(tx: Tx, tenantId: string, subject: GroupSubject, condition: Sql): Promise<void> {
  const groups = await groupPayloads(tx, tenantId, condition);
  await tx.publishMany(subject, groups.map((group) => ({ tenantId, group })));
}
