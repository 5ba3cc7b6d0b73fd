import { Injectable } from '@nestjs/common';
import { Caller, Page, badRequest, conflict, notFound } from '@ddm/contracts';
import { Db, SetClause, Tx, listPage, sql } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { DelegationRuleRow } from '../core/delegation.types';
import { RULE_COLUMNS } from '../core/delegation.sql';
import { recordDelegationChange, requireMayManage } from '../core/delegation-changes';
import { stateSubjectOf } from '../core/delegation.status';
import { conditionsClosed, nothingToChange } from './condition.rules';
import { CONDITION_BY_ID, ConditionFilters, conditionHistory, conditionsAsOf, currentConditions, recordConditionHistory } from './condition.sql';
import { ConditionMappingView, CreateConditionDto, UpdateConditionDto } from './dto/condition.dto';

/**
 * The conditions on a delegation (only when its decision has conditionEnabled): listed, added and
 * changed by whoever may manage the delegation. Each change is an entry of the conditions' history
 * and a revision of the delegation (with its `updated` event once it has left DRAFT).
 */
@Injectable()
export class ConditionsService {
  constructor(private readonly db: Db) {}

  async list(caller: Caller, delegationId: string, f: ConditionFilters): Promise<Page<ConditionMappingView>> {
    await this.requireDelegation(caller.tenantId, delegationId);
    return listPage(this.db, currentConditions(caller.tenantId, delegationId, f), (r: { view: ConditionMappingView }) => r.view);
  }

  /**
   * GET .../{delegationHistoryId}/conditions-history: given a delegation history id (a revision),
   * the conditions as they stood then; given a delegation's id, every change of its conditions.
   */
  async history(caller: Caller, id: string, f: ConditionFilters): Promise<Page<ConditionMappingView>> {
    const [hit] = await this.db.query<{ kind: string }>(
      `SELECT 'revision' AS kind FROM decision.delegation_revisions WHERE id = $1 AND tenant_id = $2
       UNION ALL SELECT 'delegation' FROM decision.delegations WHERE id = $1 AND tenant_id = $2 AND status <> 'DELETED'`,
      [id, caller.tenantId],
    );
    if (!hit) throw notFound(`Delegation history ${id} not found`);
    const spec = hit.kind === 'revision' ? conditionsAsOf(caller.tenantId, id, f) : conditionHistory(caller.tenantId, id, f);
    return listPage(this.db, spec, (r: { view: ConditionMappingView }) => r.view);
  }

  async create(caller: Caller, delegationId: string, dto: CreateConditionDto): Promise<ConditionMappingView> {
    return this.db.transaction(async (tx) => {
      const row = await this.lockForChange(tx, caller, delegationId);
      const mappingId = uuidv7();
      await tx.query(
        `INSERT INTO decision.delegation_conditions (id, tenant_id, delegation_id, condition_id, condition_name, condition_description, is_active)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [mappingId, caller.tenantId, delegationId, uuidv7(), dto.conditionName, dto.conditionDescription ?? null, dto.isActive ?? true],
      );
      return this.changed(tx, caller, row, mappingId, 'condition added');
    });
  }

  async update(caller: Caller, delegationId: string, conditionId: string, dto: UpdateConditionDto): Promise<ConditionMappingView> {
    const nothing = nothingToChange(dto);
    if (nothing) throw badRequest(nothing);
    return this.db.transaction(async (tx) => {
      const row = await this.lockForChange(tx, caller, delegationId);
      const sets = new SetClause().raw(sql`updated_on = now()`);
      if (dto.conditionName !== undefined) sets.set('condition_name', dto.conditionName);
      if (dto.conditionDescription !== undefined) sets.set('condition_description', dto.conditionDescription);
      if (dto.isActive !== undefined) sets.set('is_active', dto.isActive);
      const [mapping] = await tx.query<{ id: string }>(
        sql`UPDATE decision.delegation_conditions SET ${sets.sql} WHERE delegation_id = ${delegationId} AND condition_id = ${conditionId} RETURNING id`,
      );
      if (!mapping) throw notFound(`Condition ${conditionId} not found on delegation ${delegationId}`);
      return this.changed(tx, caller, row, mapping.id, 'condition changed');
    });
  }

  private async requireDelegation(tenantId: string, delegationId: string): Promise<void> {
    const [row] = await this.db.query(`SELECT 1 FROM decision.delegations WHERE id = $1 AND tenant_id = $2 AND status <> 'DELETED'`, [delegationId, tenantId]);
    if (!row) throw notFound(`Delegation ${delegationId} not found`);
  }

  /** The delegation, locked, after checking that its decision takes conditions and the caller may manage it. */
  private async lockForChange(tx: Tx, caller: Caller, delegationId: string): Promise<DelegationRuleRow> {
    const [row] = await tx.query<DelegationRuleRow & { condition_enabled: boolean; decision_name: string }>(
      `SELECT ${RULE_COLUMNS}, d.condition_enabled, d.name AS decision_name FROM decision.delegations g JOIN decision.decisions d ON d.id = g.decision_id
        WHERE g.id = $1 AND g.tenant_id = $2 AND g.status <> 'DELETED' FOR UPDATE OF g`,
      [delegationId, caller.tenantId],
    );
    if (!row) throw notFound(`Delegation ${delegationId} not found`);
    const closed = conditionsClosed(row);
    if (closed) throw conflict(closed);
    await requireMayManage(tx, caller, row, 'change the conditions of');
    return row;
  }

  /** The history entry, the delegation's new version and revision (and event), and the mapping as it now is. */
  private async changed(tx: Tx, caller: Caller, row: DelegationRuleRow, mappingId: string, change: string): Promise<ConditionMappingView> {
    await tx.query(recordConditionHistory(mappingId));
    await tx.query(`UPDATE decision.delegations SET updated_on = now(), updated_by = $2, version = version + 1 WHERE id = $1`, [row.id, caller.userId]);
    await recordDelegationChange(tx, caller.tenantId, [row.id], change, caller.userId, stateSubjectOf(row.status));
    const [mapping] = await tx.query<{ view: ConditionMappingView }>(CONDITION_BY_ID(mappingId));
    return mapping.view;
  }
}
