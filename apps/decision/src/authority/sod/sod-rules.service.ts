import { Injectable } from '@nestjs/common';
import { Caller, FieldError, Page, badRequest, conflict, notFound } from '@ddm/contracts';
import { Db, Queryable, SetClause, TenantUniqueName, listPage, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { chainsOf, conflictsAt, toChainView } from './sod-conflicts';
import { SodConflictView, SodConflictsQuery } from './dto/sod-conflict.dto';
import { CreateSodRuleDto, SOD_RULE_UPDATE_FIELDS, SodRulesQuery, SodSideDto, UpdateSodRuleDto } from './dto/sod-rule.dto';
import { SodRuleRow, SodRuleView, SodSideView, toSodRuleSpec, toSodRuleView } from './dto/sod-rule.response';
import { COUNT_SOD_RULES_SQL, DELETE_SOD_RULE_SQL, LIVE_SOD_RULES_SQL, LOCK_SOD_RULE_SQL, SIDES_SQL, SOD_RULE_BY_ID_SQL, sodRuleList } from './sod.sql';
import { MAX_SOD_RULES, SodSide, sidesProblem } from './sod.rules';

/** Rule names are unique among the tenant's live rules (a check, backed by the index against races). */
const SOD_RULE_NAME: TenantUniqueName = {
  table: 'decision.sod_rules',
  column: 'name',
  index: 'sod_rules_name_unique',
  taken: (name) => `A segregation-of-duties rule named "${name}" already exists in this tenant`,
};

const lowerSide = (s: SodSideDto): SodSide => ({ decisionId: s.decisionId.toLowerCase(), authorityTypeId: s.authorityTypeId.toLowerCase() });

const sideView = (s: SodSide): SodSideView => ({
  decisionId: s.decisionId,
  decisionDisplayId: s.decisionDisplayId ?? null,
  decisionName: s.decisionName ?? null,
  authorityTypeId: s.authorityTypeId,
  authorityTypeName: s.authorityTypeName ?? null,
});

/**
 * Segregation-of-duties rules of a tenant (read, listed, created, changed, deleted softly) and the
 * conflicts that stand now: every person or position holding both sides of a rule, with the chain of
 * each side. Issuing is checked against the rules by SodRefs.
 */
@Injectable()
export class SodRulesService {
  constructor(private readonly db: Db) {}

  list(caller: Caller, q: SodRulesQuery): Promise<Page<SodRuleView>> {
    return listPage(this.db, sodRuleList(caller.tenantId, q), toSodRuleView);
  }

  async get(caller: Caller, id: string): Promise<SodRuleView> {
    return toSodRuleView(await this.rowOf(this.db, caller.tenantId, id));
  }

  async create(caller: Caller, dto: CreateSodRuleDto): Promise<SodRuleView> {
    const tenantId = caller.tenantId;
    const left = lowerSide(dto.left);
    const right = lowerSide(dto.right);
    const problem = sidesProblem(left, right);
    if (problem) throw badRequest(`${problem.field} ${problem.message}`, [problem]);
    const id = uuidv7();
    return this.db.transaction(async (tx) => {
      await requireSides(tx, tenantId, { left, right });
      const [{ n }] = await tx.query<{ n: number }>(COUNT_SOD_RULES_SQL, [tenantId]);
      if (n >= MAX_SOD_RULES) throw conflict(`The tenant already has ${MAX_SOD_RULES} segregation-of-duties rules, the most it may have; delete one first`);
      await refuseTakenName(tx, SOD_RULE_NAME, tenantId, dto.name, null);
      const displayId = await tx.nextDisplayId(tenantId, 'sod-rule');
      await writeUniqueName(SOD_RULE_NAME, dto.name, () =>
        tx.query(
          `INSERT INTO decision.sod_rules (id, tenant_id, sod_rule_display_id, name, left_decision_id, left_authority_type_id, right_decision_id, right_authority_type_id,
                                           same_group_only, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
          [id, tenantId, displayId, dto.name, left.decisionId, left.authorityTypeId, right.decisionId, right.authorityTypeId, dto.sameGroupOnly ?? false, caller.userId],
        ),
      );
      return toSodRuleView(await this.rowOf(tx, tenantId, id));
    });
  }

  /** Changes the fields given; a side sent replaces the side (and is checked as on create). */
  async update(caller: Caller, id: string, dto: UpdateSodRuleDto): Promise<SodRuleView> {
    const tenantId = caller.tenantId;
    if (!SOD_RULE_UPDATE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${SOD_RULE_UPDATE_FIELDS.join(', ')}`);
    return this.db.transaction(async (tx) => {
      const [current] = await tx.query<{ left_decision_id: string; left_authority_type_id: string; right_decision_id: string; right_authority_type_id: string }>(LOCK_SOD_RULE_SQL, [id, tenantId]);
      if (!current) throw notFound(`Segregation-of-duties rule ${id} not found`);
      const left = dto.left ? lowerSide(dto.left) : { decisionId: current.left_decision_id, authorityTypeId: current.left_authority_type_id };
      const right = dto.right ? lowerSide(dto.right) : { decisionId: current.right_decision_id, authorityTypeId: current.right_authority_type_id };
      const problem = sidesProblem(left, right);
      if (problem) throw badRequest(`${problem.field} ${problem.message}`, [problem]);
      await requireSides(tx, tenantId, { left: dto.left ? left : undefined, right: dto.right ? right : undefined });
      if (dto.name !== undefined) await refuseTakenName(tx, SOD_RULE_NAME, tenantId, dto.name, id);
      const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${caller.userId}`);
      if (dto.name !== undefined) sets.set('name', dto.name);
      if (dto.left) sets.set('left_decision_id', left.decisionId).set('left_authority_type_id', left.authorityTypeId);
      if (dto.right) sets.set('right_decision_id', right.decisionId).set('right_authority_type_id', right.authorityTypeId);
      if (dto.sameGroupOnly !== undefined) sets.set('same_group_only', dto.sameGroupOnly);
      const write = () => tx.query(sql`UPDATE decision.sod_rules SET ${sets.sql} WHERE id = ${id} AND tenant_id = ${tenantId}`);
      await (dto.name !== undefined ? writeUniqueName(SOD_RULE_NAME, dto.name, write) : write());
      return toSodRuleView(await this.rowOf(tx, tenantId, id));
    });
  }

  /** Deletes softly: the rule leaves every list and check; delegations that acknowledged it still name it. Answers it, deleted. */
  async remove(caller: Caller, id: string): Promise<SodRuleView> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.query(LOCK_SOD_RULE_SQL, [id, caller.tenantId]);
      if (!current) throw notFound(`Segregation-of-duties rule ${id} not found`);
      const [row] = await tx.query<SodRuleRow>(DELETE_SOD_RULE_SQL, [id, caller.tenantId, caller.userId]);
      return toSodRuleView(row);
    });
  }

  /**
   * The conflicts that stand now, paged: for each live rule (or the one asked for) whose decisions
   * are live, each person or position holding both sides, one item per pair of delegations held, in
   * the order of findConflicts. The engine's holders are read once per decision the rules name; the
   * chains of the page's delegations in one statement.
   */
  async conflicts(caller: Caller, q: SodConflictsQuery): Promise<Page<SodConflictView>> {
    const tenantId = caller.tenantId;
    const rows = await this.db.query<SodRuleRow>(LIVE_SOD_RULES_SQL, [tenantId, null, q.ruleId ?? null]);
    if (q.ruleId && !rows.length) await this.rowOf(this.db, tenantId, q.ruleId);
    const userId = q.userId?.toLowerCase();
    const all = (await conflictsAt(this.db, caller, rows.map(toSodRuleSpec), undefined)).filter((c) => userId === undefined || (c.holderType === 'USER' && c.userId === userId));
    const page = all.slice((q.page - 1) * q.limit, q.page * q.limit);
    const chains = await chainsOf(this.db, tenantId, page.flatMap((c) => [c.left.delegationId, c.right.delegationId]));
    const items = page.map((c): SodConflictView => {
      const left = chains.get(c.left.delegationId) ?? [];
      const right = chains.get(c.right.delegationId) ?? [];
      return {
        rule: { id: c.rule.id, name: c.rule.name },
        holderType: c.holderType,
        userId: c.userId,
        userName: c.userName,
        positionId: c.positionId,
        acknowledged: [...left, ...right].some((l) => l.sod_acknowledged_rule_ids.includes(c.rule.id)),
        left: { ...sideView(c.rule.left), delegationId: c.left.delegationId, viaPositionId: c.left.positionId, chain: toChainView(left, c.rule.left.authorityTypeId) },
        right: { ...sideView(c.rule.right), delegationId: c.right.delegationId, viaPositionId: c.right.positionId, chain: toChainView(right, c.rule.right.authorityTypeId) },
      };
    });
    return new Page(items, all.length, q.page, q.limit);
  }

  private async rowOf(q: Queryable, tenantId: string, id: string): Promise<SodRuleRow> {
    const [row] = await q.query<SodRuleRow>(SOD_RULE_BY_ID_SQL, [id, tenantId]);
    if (!row) throw notFound(`Segregation-of-duties rule ${id} not found`);
    return row;
  }
}

/**
 * Each side sent names a live decision of the tenant (else a 404 naming `<side>.decisionId`) and one
 * of that decision's authority types (else a 400 naming `<side>.authorityTypeId`), in one statement.
 */
async function requireSides(q: Queryable, tenantId: string, sides: { left?: SodSide; right?: SodSide }): Promise<void> {
  const sent = (['left', 'right'] as const).flatMap((name) => (sides[name] ? [{ name, side: sides[name] }] : []));
  if (!sent.length) return;
  const rows = await q.query<{ n: number; decision_found: boolean; type_found: boolean }>(SIDES_SQL, [tenantId, sent.map((s) => s.side.decisionId), sent.map((s) => s.side.authorityTypeId)]);
  const missing: FieldError[] = [];
  const foreign: FieldError[] = [];
  rows.forEach((r, i) => {
    const { name, side } = sent[i];
    if (!r.decision_found) missing.push({ field: `${name}.decisionId`, message: `Decision ${side.decisionId} not found` });
    else if (!r.type_found) foreign.push({ field: `${name}.authorityTypeId`, message: `is not an authority type of decision ${side.decisionId}` });
  });
  if (missing.length) throw notFound(missing.map((e) => e.message).join('; '), missing);
  if (foreign.length) throw badRequest(`Invalid input: ${foreign.map((e) => `${e.field} ${e.message}`).join('; ')}`, foreign);
}
