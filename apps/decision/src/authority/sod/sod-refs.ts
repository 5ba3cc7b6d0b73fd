import { Injectable } from '@nestjs/common';
import { Caller, conflict, forbidden } from '@ddm/contracts';
import { Tx } from '@ddm/platform';
import { DelegationRow } from '../../core/delegation.types';
import { recordDelegationChange } from '../../core/delegation-changes';
import { conflictsAt } from './sod-conflicts';
import { SodRuleRow, toSodRuleSpec } from './dto/sod-rule.response';
import { ACKNOWLEDGE_SQL, HOLDING_FROM_SQL, LIVE_SOD_RULES_SQL, SOD_LOCK_SQL, SUBTREES_SQL } from './sod.sql';
import { acknowledgements, conflictRefusal } from './sod.rules';

/** The key whose holder may issue a delegation despite a segregation-of-duties conflict. */
export const ACKNOWLEDGE_KEY = 'approve:delegations';

/** What delegations ask of segregation of duties. */
@Injectable()
export class SodRefs {
  /**
   * Called in the transaction that makes delegations of one decision begin to hold (issued, approved,
   * accepted, resumed), after their revision is recorded: the conflicts that holding creates, as the
   * engine sees holdings at the instant they begin (now, or their effective date), through them or
   * the delegations below them (a resumed one brings its subtree back). None: nothing happens. Else
   * a 409 naming the rules, unless `acknowledge`: then a 403 without approve:delegations, or the
   * rules are added to each delegation's sodAcknowledgedRuleIds, with a revision ("sod conflict
   * acknowledged", no event: nothing other areas project changes). Answers those revisions' rows.
   */
  async refuseConflicts(tx: Tx, caller: Caller, decisionId: string, delegationIds: readonly string[], acknowledge: boolean): Promise<DelegationRow[]> {
    const tenantId = caller.tenantId;
    const rules = (await tx.query<SodRuleRow>(LIVE_SOD_RULES_SQL, [tenantId, decisionId, null])).map(toSodRuleSpec);
    if (!rules.length) return [];
    await tx.query(SOD_LOCK_SQL, [tenantId]);
    const [{ at }] = await tx.query<{ at: string }>(HOLDING_FROM_SQL, [tenantId, delegationIds]);
    const issuedOf = new Map((await tx.query<{ id: string; issued: string }>(SUBTREES_SQL, [tenantId, delegationIds])).map((r) => [r.id, r.issued]));
    const conflicts = await conflictsAt(tx, caller, rules, at, new Set(issuedOf.keys()));
    if (!conflicts.length) return [];
    if (!acknowledge) {
      const { message, errors } = conflictRefusal(conflicts);
      throw conflict(message, errors);
    }
    if (!caller.keys.has(ACKNOWLEDGE_KEY)) {
      throw forbidden(`Only a holder of "${ACKNOWLEDGE_KEY}" may acknowledge a segregation-of-duties conflict (rule "${conflicts[0].rule.name}", ${conflicts[0].rule.id})`);
    }
    const acknowledged = acknowledgements(conflicts, issuedOf);
    await tx.query(ACKNOWLEDGE_SQL, [tenantId, JSON.stringify([...acknowledged].map(([id, ruleIds]) => ({ id, rules: ruleIds })))]);
    return recordDelegationChange(tx, tenantId, [...acknowledged.keys()], 'sod conflict acknowledged', caller.userId, null);
  }
}
