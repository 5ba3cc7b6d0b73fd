/**
 * What other folders (the consumers, the overdue sweep) ask of actions: opening the system action
 * of a cause, settling the system actions whose cause is answered or gone, and moving open actions
 * past their due date to Overdue. Each change publishes the actions' events in its transaction.
 */
import { ACTION_SUBJECTS, actionDefaultId } from '@ddm/contracts';
import { Tx, sql } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { insertDefaultConfiguration } from '../action-config/action-config-refs';
import { SettledKey, priorityIdOf, priorityRank, statusIdOf, statusRank } from '../core/configuration.rules';
import { unique } from '../core/ids';
import { SystemKind } from '../core/system-actions.rules';
import { addAssignees, publishActions, publishAssigned, readViews } from './action-writes';

export interface SystemActionSpec {
  tenantId: string;
  kind: SystemKind;
  /** One action per cause and tenant (`delegation:<id>:acceptance`, `document-cycle:<id>:review`, ...). */
  causeKey: string;
  causeVersion?: number | null;
  actionName: string;
  /** A default type's key (REVIEW, APPROVAL, TASK, ...). */
  typeKey: string;
  /** The person whose step caused it. */
  ownerId: string | null;
  assigneeIds: readonly string[];
  decisionId?: string | null;
  delegationId?: string | null;
  documentId?: string | null;
  requestedBy?: string | null;
  /** When the step is due (ISO 8601); none by default. */
  dueDate?: string | null;
}

/**
 * Opens the system action of a cause unless the tenant already has one (the cause key's unique
 * index decides, also against a concurrent delivery): inserts it with its assignees and publishes
 * created and assigned. Answers whether it was opened now.
 */
export async function openSystemAction(tx: Tx, spec: SystemActionSpec): Promise<boolean> {
  const { tenantId } = spec;
  await insertDefaultConfiguration(tx, tenantId);
  const id = uuidv7();
  const displayId = await tx.nextDisplayId(tenantId, 'action');
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO actions.actions (id, tenant_id, action_display_id, action_name, action_type_id, action_priority_id, action_status_id, status_key, status_rank,
                                  priority_rank, decision_id, delegation_id, document_id, owner_id, is_system_generated, system_kind, cause_key, cause_version,
                                  requested_by, due_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'TODO', $8, $9, $10, $11, $12, $13, true, $14, $15, $16, $17, $18)
     ON CONFLICT (tenant_id, cause_key) WHERE cause_key IS NOT NULL DO NOTHING
     RETURNING id`,
    [
      id, tenantId, displayId, spec.actionName.slice(0, 200), actionDefaultId(tenantId, 'type', spec.typeKey), priorityIdOf(tenantId, 'MEDIUM'),
      statusIdOf(tenantId, 'TODO'), statusRank('TODO'), priorityRank('MEDIUM'), spec.decisionId ?? null, spec.delegationId ?? null,
      spec.documentId ?? null, spec.ownerId, spec.kind, spec.causeKey, spec.causeVersion ?? null, spec.requestedBy ?? null, spec.dueDate ?? null,
    ],
  );
  // A display id taken for a cause that already had its action is a gap, as a rolled-back create would leave.
  if (!inserted.length) return false;
  const added = await addAssignees(tx, tenantId, [id], unique(spec.assigneeIds));
  const views = await readViews(tx, tenantId, [id]);
  await publishActions(tx, tenantId, ACTION_SUBJECTS.created, views, null);
  await publishAssigned(tx, tenantId, views, added, null);
  return true;
}

/**
 * Moves the unsettled system actions of the tenant that `where` picks (of the kinds named) to
 * `key` (Completed or Canceled), with their assignees; publishes updated (and completed). Answers how many moved.
 */
export async function settleSystemActions(
  tx: Tx,
  tenantId: string,
  kinds: readonly SystemKind[],
  by: { delegationId: string } | { documentId: string } | { causeKey: string } | { causePrefix: string; except?: string },
  key: SettledKey,
): Promise<number> {
  if (!kinds.length) return 0;
  const statusId = statusIdOf(tenantId, key);
  const target =
    'causeKey' in by
      ? sql`cause_key = ${by.causeKey}`
      : 'causePrefix' in by
        ? sql`starts_with(cause_key, ${by.causePrefix}) AND cause_key IS DISTINCT FROM ${by.except ?? null}::text`
        : 'documentId' in by
          ? sql`document_id = ${by.documentId}::uuid`
          : sql`delegation_id = ${by.delegationId}::uuid`;
  const rows = await tx.query<{ id: string }>(sql`
    UPDATE actions.actions SET action_status_id = ${statusId}, status_key = ${key}, status_rank = ${statusRank(key)}, version = version + 1,
           updated_on = now(), updated_by = NULL
     WHERE tenant_id = ${tenantId} AND ${target} AND is_system_generated AND system_kind = ANY(${kinds}::text[])
       AND status_key IN ('TODO', 'IN_PROGRESS', 'OVERDUE') AND NOT is_deleted
    RETURNING id`);
  const ids = rows.map((r) => r.id);
  if (!ids.length) return 0;
  await tx.query(sql`UPDATE actions.action_assignees SET action_status_id = ${statusId}, action_taken_date = coalesce(action_taken_date, now())
    WHERE tenant_id = ${tenantId} AND action_id = ANY(${ids}::uuid[])`);
  const views = await readViews(tx, tenantId, ids);
  await publishActions(tx, tenantId, ACTION_SUBJECTS.updated, views, null);
  if (key === 'COMPLETED') await publishActions(tx, tenantId, ACTION_SUBJECTS.completed, views, null);
  return ids.length;
}

/**
 * Open actions (To Do, In Progress) past their due date, in every tenant, move to Overdue: up to
 * `batch` of them, oldest due first, taken with FOR UPDATE SKIP LOCKED (two replicas never take the
 * same one) and moved in one statement; publishes overdue for each. Answers how many moved. The
 * caller runs it across tenants (Db.acrossTenants).
 */
export async function moveOverdueActions(tx: Tx, batch: number): Promise<number> {
  const rows = await tx.query<{ id: string; tenant_id: string }>(
    `WITH due AS (
       SELECT id FROM actions.actions
        WHERE NOT is_deleted AND status_key IN ('TODO', 'IN_PROGRESS') AND due_date < now()
        ORDER BY due_date LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE actions.actions a SET action_status_id = s.id, status_key = 'OVERDUE', status_rank = $2, version = a.version + 1, updated_on = now(), updated_by = NULL
       FROM due, actions.action_statuses s
      WHERE a.id = due.id AND s.tenant_id = a.tenant_id AND s.status_key = 'OVERDUE'
     RETURNING a.id, a.tenant_id`,
    [batch, statusRank('OVERDUE')],
  );
  const byTenant = new Map<string, string[]>();
  for (const r of rows) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.id]);
  for (const [tenantId, ids] of byTenant) await publishActions(tx, tenantId, ACTION_SUBJECTS.overdue, await readViews(tx, tenantId, ids), null);
  return rows.length;
}
