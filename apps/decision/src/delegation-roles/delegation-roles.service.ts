import { Injectable } from '@nestjs/common';
import { Caller, Page, conflict, notFound } from '@ddm/contracts';
import { Db, Tx, listPage } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { DelegationRuleRow, DelegationStatus } from '../core/delegation.types';
import { EVENT_ROLE_STATUS, LIVE_SQL, requireRecipients, ROLE_VIEW, RULE_COLUMNS } from '../core/delegation.sql';
import { recordDelegationChange, requireMayManage } from '../core/delegation-changes';
import { stateSubjectOf } from '../core/delegation.status';
import { refuseBadRecipients } from '../core/recipients';
import { DelegationRoleView, RolesQuery, UpdateDelegationRoleDto } from './dto/delegation-role.dto';
import { delegationRoles, rolesAsOf } from './delegation-role.sql';
import { designeesAfter, rolesClosed } from './delegation-role.rules';

const DESIGNEE_NAMES = { user: 'designeeUserId', position: 'designeePositionId' };

/**
 * The decision roles (from settings) on a delegation, only when its decision has roleEnabled: listed
 * with how the delegation fills each, set by whoever may manage the delegation (with isCascade, on
 * every live delegation below it too, in one recursive statement). Each change is a revision of each
 * delegation it touches (with its `updated` event once it has left DRAFT); a revision stores the roles.
 */
@Injectable()
export class DelegationRolesService {
  constructor(private readonly db: Db) {}

  async list(caller: Caller, delegationId: string, q: RolesQuery): Promise<Page<DelegationRoleView>> {
    const [row] = await this.db.query(`SELECT 1 FROM decision.delegations WHERE id = $1 AND tenant_id = $2 AND status <> 'DELETED'`, [delegationId, caller.tenantId]);
    if (!row) throw notFound(`Delegation ${delegationId} not found`);
    return listPage(this.db, delegationRoles(caller.tenantId, delegationId, q), (r: { view: DelegationRoleView }) => r.view);
  }

  /** GET .../{delegationHistoryId}/roles-history: the roles set on the delegation at that revision (a delegation's own id: its latest revision). */
  async history(caller: Caller, id: string, q: RolesQuery): Promise<Page<DelegationRoleView>> {
    const [hit] = await this.db.query<{ revision_id: string }>(
      `SELECT id AS revision_id FROM decision.delegation_revisions WHERE id = $1 AND tenant_id = $2
       UNION ALL
       SELECT (SELECT r.id FROM decision.delegation_revisions r WHERE r.delegation_id = g.id ORDER BY r.revision_id DESC LIMIT 1)
         FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 AND g.status <> 'DELETED'`,
      [id, caller.tenantId],
    );
    if (!hit?.revision_id) throw notFound(`Delegation history ${id} not found`);
    return listPage(this.db, rolesAsOf(caller.tenantId, hit.revision_id, q), (r: { view: DelegationRoleView }) => r.view);
  }

  async update(caller: Caller, delegationId: string, roleId: string, dto: UpdateDelegationRoleDto): Promise<DelegationRoleView> {
    const tenantId = caller.tenantId;
    return this.db.transaction(async (tx) => {
      await this.lockForChange(tx, caller, delegationId);
      const [role] = await tx.query(`SELECT 1 FROM decision.decision_role_projection WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted`, [roleId, tenantId]);
      if (!role) throw notFound(`Decision role ${roleId} not found`, [{ field: 'roleId', message: `Decision role ${roleId} not found` }]);
      const [current] = await tx.query<{ designee_recipient_type: string | null; role_designees: { designeeUserId: string | null; designeePositionId: string | null }[] }>(
        `SELECT designee_recipient_type, role_designees FROM decision.delegation_roles WHERE delegation_id = $1 AND role_id = $2`,
        [delegationId, roleId],
      );
      const { type, designees, people } = designeesAfter(dto, current ?? null);
      if (people.length) {
        refuseBadRecipients(type ?? 'SPECIFIC_PERSONNEL', people, 'roleDesignees', DESIGNEE_NAMES);
        await requireRecipients(tx, tenantId, people, 'roleDesignees', DESIGNEE_NAMES);
      }
      // This delegation, and with isCascade every live one below it: one statement sets the role on all of them.
      const touched = await tx.query<{ delegation_id: string; status: DelegationStatus }>(
        `WITH RECURSIVE tree AS (
           SELECT id FROM decision.delegations WHERE id = $1
           UNION ALL
           SELECT c.id FROM decision.delegations c JOIN tree t ON c.parent_delegation_id = t.id WHERE $9::boolean AND c.tenant_id = $2 AND c.status IN ${LIVE_SQL}),
         target AS (SELECT g.id, g.status FROM tree JOIN decision.delegations g ON g.id = tree.id),
         upserted AS (
           INSERT INTO decision.delegation_roles (id, tenant_id, delegation_id, role_id, designee_recipient_type, is_auto_issue, role_designees, role_status, role_requirement, is_cascade)
           SELECT gen_random_uuid(), $2, t.id, $3, $4, coalesce($5, false), $6::jsonb, coalesce($7, 'ACTIVE'), $8, $9 FROM target t
           ON CONFLICT (delegation_id, role_id) DO UPDATE SET
             designee_recipient_type = excluded.designee_recipient_type, role_designees = excluded.role_designees,
             is_auto_issue = coalesce($5, decision.delegation_roles.is_auto_issue), role_status = coalesce($7, decision.delegation_roles.role_status),
             role_requirement = CASE WHEN $10::boolean THEN excluded.role_requirement ELSE decision.delegation_roles.role_requirement END,
             is_cascade = excluded.is_cascade, updated_on = now()
           RETURNING delegation_id)
         SELECT u.delegation_id, t.status FROM upserted u JOIN target t ON t.id = u.delegation_id`,
        [delegationId, tenantId, roleId, type, dto.isAutoIssue ?? null, JSON.stringify(designees), dto.roleStatus ?? null, dto.roleRequirement ?? null, dto.isCascade ?? false, dto.roleRequirement !== undefined],
      );
      const ids = touched.map((t) => t.delegation_id);
      // One assignment per delegation the role was set on (a uuidv7: later ones compare greater), in one statement:
      // the delegation events carry it beside the role, evt.decision.delegation.role-assigned names it.
      await tx.query(
        `UPDATE decision.delegation_roles dr SET assignment_id = x.assignment_id FROM unnest($1::uuid[], $2::uuid[]) AS x(delegation_id, assignment_id)
          WHERE dr.delegation_id = x.delegation_id AND dr.role_id = $3`,
        [ids, ids.map(() => uuidv7()), roleId],
      );
      await tx.query(`UPDATE decision.delegations SET updated_on = now(), updated_by = $2, version = version + 1 WHERE id = ANY($1::uuid[])`, [ids, caller.userId]);
      for (const status of new Set(touched.map((t) => t.status))) {
        await recordDelegationChange(tx, tenantId, touched.filter((t) => t.status === status).map((t) => t.delegation_id), 'role changed', caller.userId, stateSubjectOf(status));
      }
      await publishRoleAssignments(tx, tenantId, roleId, touched.map((t) => t.delegation_id));
      const [view] = await tx.query<{ view: DelegationRoleView }>(
        `SELECT ${ROLE_VIEW('dr.delegation_id')} AS view FROM decision.delegation_roles dr JOIN decision.decision_role_projection r ON r.id = dr.role_id
          WHERE dr.delegation_id = $1 AND dr.role_id = $2`,
        [delegationId, roleId],
      );
      return view.view;
    });
  }

  /** The delegation, locked, after checking that its decision takes roles, it is live, and the caller may manage it. */
  private async lockForChange(tx: Tx, caller: Caller, delegationId: string): Promise<DelegationRuleRow> {
    const [row] = await tx.query<DelegationRuleRow & { role_enabled: boolean; decision_name: string }>(
      `SELECT ${RULE_COLUMNS}, d.role_enabled, d.name AS decision_name FROM decision.delegations g JOIN decision.decisions d ON d.id = g.decision_id
        WHERE g.id = $1 AND g.tenant_id = $2 AND g.status <> 'DELETED' FOR UPDATE OF g`,
      [delegationId, caller.tenantId],
    );
    if (!row) throw notFound(`Delegation ${delegationId} not found`);
    const closed = rolesClosed(row);
    if (closed) throw conflict(closed);
    await requireMayManage(tx, caller, row, 'change the roles of');
    return row;
  }
}

/**
 * evt.decision.delegation.role-assigned for each delegation the role was set on (DRAFTs excepted:
 * their roles reach other areas with the delegation's events, issued included), in one statement:
 * the people it names now (SPECIFIC_PERSONNEL and PERSONNEL_IN_POSITION designees by their user,
 * POSITION_ONLY ones by whoever holds the position today, active members only).
 */
async function publishRoleAssignments(tx: Tx, tenantId: string, roleId: string, delegationIds: readonly string[]): Promise<void> {
  const rows = await tx.query<{ assignment_id: string | null; delegation_id: string; delegation_display_id: string; decision_id: string; issuer_user_id: string | null; role_name: string; role_status: string; designees: string[] }>(
    `SELECT dr.assignment_id, g.id AS delegation_id, g.delegation_display_id, g.decision_id, g.issuer_user_id, r.role_name, ${EVENT_ROLE_STATUS('dr.role_status')} AS role_status,
            coalesce((SELECT array_agg(DISTINCT u.id ORDER BY u.id)
                        FROM jsonb_array_elements(dr.role_designees) d
                        JOIN decision.user_projection u ON u.tenant_id = g.tenant_id AND u.status = 'ACTIVE'
                         AND (CASE WHEN dr.designee_recipient_type = 'POSITION_ONLY'
                                   THEN (d->>'designeePositionId')::uuid = ANY(u.position_ids)
                                   ELSE u.id = (d->>'designeeUserId')::uuid END)), '{}') AS designees
       FROM decision.delegation_roles dr
       JOIN decision.delegations g ON g.id = dr.delegation_id
       JOIN decision.decision_role_projection r ON r.id = dr.role_id
      WHERE dr.tenant_id = $1 AND dr.role_id = $2 AND dr.delegation_id = ANY($3::uuid[]) AND g.status <> 'DRAFT'`,
    [tenantId, roleId, delegationIds],
  );
  await tx.publishMany(
    'evt.decision.delegation.role-assigned',
    rows.map((r) => ({
      tenantId,
      // The assignment the update recorded (the delegation's events carry the same id with the role).
      assignmentId: r.assignment_id ?? uuidv7(),
      delegationId: r.delegation_id,
      delegationDisplayId: r.delegation_display_id,
      decisionId: r.decision_id,
      roleId,
      roleName: r.role_name,
      roleStatus: r.role_status,
      designeeUserIds: r.designees,
      issuerUserId: r.issuer_user_id,
    })),
  );
}
