/** Opening a system action: once per cause, however often its event arrives. */
import { ACTION_SUBJECTS } from '@ddm/contracts';
import { Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { insertDefaults } from '../action-config/action-config.service';
import { priorityIdOf, statusIdOf } from '../action-config/action-config.rules';
import { SystemKind, unique } from '../actions/action.rules';
import { addAssignees, priorityRank, publishActions, publishAssigned, readViews, statusRank } from '../actions/action-writes';
import { actionDefaultId } from '@ddm/contracts';

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
  await insertDefaults(tx, tenantId);
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
