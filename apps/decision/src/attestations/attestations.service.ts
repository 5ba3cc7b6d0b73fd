import { Injectable } from '@nestjs/common';
import { AttestationOutcome, Caller, Page, badRequest, conflict, forbidden, missingIds, missingIdsError, notFound } from '@ddm/contracts';
import { Db, Tx, isoSql, listPage } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { holds } from '../delegations/delegation.rules';
import { DelegationRuleRow, RULE_COLUMNS, loadOrg, toState } from '../delegations/delegation.sql';
import { recordDelegationChange, stateSubjectOf } from '../delegations/delegation-changes';
import {
  ItemStatus,
  MAX_CAMPAIGN_ITEMS,
  ReportLine,
  ResponseChannel,
  REPORT_HEADER,
  answerProblem,
  dueDateProblem,
  flagChange,
  normalizeScope,
  reportCsvLine,
  reportFileName,
} from './attestation.rules';
import {
  CAMPAIGN_BY_ID_SQL,
  CAMPAIGN_EXISTS_SQL,
  CLOSE_ANSWERED_SQL,
  ITEM_BY_DELEGATION_SQL,
  OpenedItem,
  ReportKey,
  campaignList,
  insertItems,
  itemList,
  reportBatch,
  scopeRefs,
} from './attestation.sql';
import { CreateAttestationCampaignDto, RespondAttestationDto } from './dto/attestation-change.dto';
import { ListAttestationCampaignsQuery, ListAttestationItemsQuery } from './dto/attestation-query.dto';
import { AttestationCampaignView, AttestationItemView, toItemEvent } from './dto/attestation.response';

/** Lines of the report read per statement while it streams (memory holds one batch). */
const REPORT_BATCH = 500;

/** An answer to record: who gave it, for which delegation of which campaign, and how it came. */
export interface Answer {
  tenantId: string;
  campaignId: string;
  delegationId: string;
  userId: string;
  outcome: AttestationOutcome;
  comment: string | null;
  via: ResponseChannel;
}

/** What a campaign row holds that an answer and its events need. */
interface CampaignRow {
  id: string;
  name: string;
  due_date: Date;
  created_by: string;
}

/**
 * Attestation campaigns: opened over a scope (its items in one statement, one requested event per
 * delegation, in one transaction), read with their progress, listed, reported as CSV, and answered
 * by each delegation's holder (here, or through the actions area's Attestation action: both end in
 * `recordAnswer`). The overdue sweep (attestation-overdue.sweep.ts) marks what is left at the due date.
 */
@Injectable()
export class AttestationsService {
  constructor(private readonly db: Db) {}

  /** Opens a campaign over the delegations its scope names that are held now; 400 when there is none, or more than MAX_CAMPAIGN_ITEMS. */
  async open(caller: Caller, dto: CreateAttestationCampaignDto): Promise<AttestationCampaignView> {
    const tenantId = caller.tenantId;
    const scope = normalizeScope(dto.scope);
    if (Array.isArray(scope)) throw badRequest(`Invalid scope: ${scope[0].message}`, scope);
    const dueDate = new Date(dto.dueDate);
    const late = dueDateProblem(dueDate, new Date());
    if (late) throw badRequest(`dueDate ${late}`, [{ field: 'dueDate', message: late }]);
    const id = uuidv7();
    await this.db.transaction(async (tx) => {
      const found = await tx.query<{ kind: string; id: string }>(scopeRefs(tenantId, scope));
      const missingDecisions = missingIds(scope.decisionIds, found.filter((r) => r.kind === 'decision').map((r) => r.id));
      if (missingDecisions.length) throw missingIdsError({ what: 'Decision', field: 'scope.decisionIds', asked: dto.scope.decisionIds ?? [], missing: missingDecisions });
      const missingGroups = missingIds(scope.groupIds, found.filter((r) => r.kind === 'group').map((r) => r.id));
      if (missingGroups.length) throw missingIdsError({ what: 'Group', field: 'scope.groupIds', asked: dto.scope.groupIds ?? [], missing: missingGroups });

      const displayId = await tx.nextDisplayId(tenantId, 'attestation-campaign');
      await tx.query(
        `INSERT INTO decision.attestation_campaigns (id, tenant_id, campaign_display_id, name, scope, due_date, suspend_overdue, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, tenantId, displayId, dto.name, JSON.stringify(scope), dueDate, dto.suspendOverdue ?? false, caller.userId],
      );
      const items = await tx.query<OpenedItem>(insertItems(tenantId, id, scope, MAX_CAMPAIGN_ITEMS + 1));
      if (!items.length) throw badRequest('Nothing to attest: the scope covers no delegation held today (ISSUED or ACCEPTED, in force, valid)', [{ field: 'scope', message: 'covers no delegation held today' }]);
      if (items.length > MAX_CAMPAIGN_ITEMS) {
        throw badRequest(`The scope covers more than ${MAX_CAMPAIGN_ITEMS} delegations held today: split it into several campaigns`, [{ field: 'scope', message: `covers more than ${MAX_CAMPAIGN_ITEMS} delegations` }]);
      }
      const campaign: CampaignRow = { id, name: dto.name, due_date: dueDate, created_by: caller.userId };
      await tx.publishMany(
        'evt.decision.attestation.requested',
        items.map((i) => ({ ...toItemEvent(tenantId, campaign, i), holderUserIds: i.holder_ids })),
      );
    });
    return this.get(caller, id);
  }

  async get(caller: Caller, id: string): Promise<AttestationCampaignView> {
    const [row] = await this.db.query<{ view: AttestationCampaignView }>(CAMPAIGN_BY_ID_SQL, [id, caller.tenantId]);
    if (!row) throw notFound(`Attestation campaign ${id} not found`);
    return row.view;
  }

  list(caller: Caller, q: ListAttestationCampaignsQuery): Promise<Page<AttestationCampaignView>> {
    return listPage(this.db, campaignList(caller.tenantId, q), (r: { view: AttestationCampaignView }) => r.view);
  }

  async items(caller: Caller, id: string, q: ListAttestationItemsQuery): Promise<Page<AttestationItemView>> {
    await this.requireCampaign(caller.tenantId, id);
    return listPage(this.db, itemList(caller.tenantId, id, q), (r: { view: AttestationItemView }) => r.view);
  }

  /** The report as CSV: the file name, and its lines as they are read (a batch of REPORT_BATCH items at a time). */
  async reportCsv(caller: Caller, id: string): Promise<{ fileName: string; lines: AsyncIterable<string> }> {
    const displayId = await this.requireCampaign(caller.tenantId, id);
    return { fileName: reportFileName(displayId), lines: this.reportLines(caller.tenantId, id) };
  }

  /** POST .../items/{delegationId}/respond: the caller answers for a delegation they hold. */
  respond(caller: Caller, campaignId: string, delegationId: string, dto: RespondAttestationDto): Promise<AttestationItemView> {
    const answer: Answer = { tenantId: caller.tenantId, campaignId, delegationId, userId: caller.userId, outcome: dto.outcome, comment: dto.comment || null, via: 'API' };
    return this.db.transaction((tx) => this.recordAnswer(tx, answer));
  }

  /**
   * Records an answer, however it came (this area's endpoint, the actions area's event): 404 for an
   * unknown campaign or a delegation it does not cover, 403 unless the person holds the delegation
   * now, 409 when it was answered already, the campaign is past due, or the delegation is no longer
   * held. A dispute flags the delegation for its issuer (a revision, its updated event, the disputed
   * notice); a confirmation clears a flag an earlier campaign set. The campaign closes with its last
   * pending item. The campaign row is locked first, so two last answers cannot both miss closing it.
   */
  async recordAnswer(tx: Tx, a: Answer): Promise<AttestationItemView> {
    const [campaign] = await tx.query<CampaignRow>(
      `SELECT id, name, due_date, created_by FROM decision.attestation_campaigns WHERE id = $1 AND tenant_id = $2 FOR NO KEY UPDATE`,
      [a.campaignId, a.tenantId],
    );
    if (!campaign) throw notFound(`Attestation campaign ${a.campaignId} not found`);
    const [item] = await tx.query<{ id: string; status: ItemStatus; recipient_type: string; recipient_user_id: string | null; recipient_position_id: string | null }>(
      `SELECT id, status, recipient_type, recipient_user_id, recipient_position_id FROM decision.attestation_items WHERE campaign_id = $1 AND delegation_id = $2 AND tenant_id = $3 FOR UPDATE`,
      [a.campaignId, a.delegationId, a.tenantId],
    );
    if (!item) throw notFound(`Delegation ${a.delegationId} is not covered by attestation campaign ${a.campaignId}`);
    const [row] = await tx.query<DelegationRuleRow & { delegation_display_id: string; attestation_disputed_campaign_id: string | null }>(
      `SELECT ${RULE_COLUMNS}, g.delegation_display_id, g.attestation_disputed_campaign_id FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 FOR UPDATE`,
      [a.delegationId, a.tenantId],
    );
    const org = await loadOrg(tx, a.tenantId, [a.userId], row.recipient_position_id ? [row.recipient_position_id] : []);
    if (!holds(toState(row), a.userId, org)) throw forbidden(`Only a holder of delegation ${row.delegation_display_id} may answer its attestation`);
    const problem = answerProblem({ itemStatus: item.status, dueDate: new Date(campaign.due_date), delegationStatus: row.status, delegationDisplayId: row.delegation_display_id }, new Date());
    if (problem) throw conflict(problem);

    const [answered] = await tx.query<{ responded_at: string }>(
      `UPDATE decision.attestation_items SET status = $3, comment = $4, responded_by = $5, responded_on = now(), responded_via = $6, updated_on = now()
        WHERE id = $1 AND tenant_id = $2 RETURNING ${isoSql('responded_on')} AS responded_at`,
      [item.id, a.tenantId, a.outcome, a.comment, a.userId, a.via],
    );
    const flag = flagChange(a.outcome, row.attestation_disputed_campaign_id);
    if (flag) {
      await tx.query(
        `UPDATE decision.delegations SET attestation_disputed_campaign_id = $3, updated_on = now(), updated_by = $4, version = version + 1 WHERE id = $1 AND tenant_id = $2`,
        [row.id, a.tenantId, flag === 'flag' ? a.campaignId : null, a.userId],
      );
      await recordDelegationChange(tx, a.tenantId, [row.id], flag === 'flag' ? 'attestation disputed' : 'attestation confirmed', a.userId, stateSubjectOf(row.status));
    }
    const event = {
      ...toItemEvent(a.tenantId, campaign, { ...item, delegation_id: row.id, delegation_display_id: row.delegation_display_id, decision_id: row.decision_id, issuer_user_id: row.issuer_user_id }),
      outcome: a.outcome,
      comment: a.comment,
      respondedById: a.userId,
      respondedAt: answered.responded_at,
    };
    await tx.publish('evt.decision.attestation.responded', event);
    if (a.outcome === 'DISPUTED') await tx.publish('evt.decision.attestation.disputed', { ...event, notifyUserIds: row.issuer_user_id ? [row.issuer_user_id] : [] });
    await tx.query(CLOSE_ANSWERED_SQL, [[a.campaignId]]);
    const [view] = await tx.query<{ view: AttestationItemView }>(ITEM_BY_DELEGATION_SQL, [a.campaignId, a.delegationId, a.tenantId]);
    return view.view;
  }

  /** The campaign's display id; 404 when the tenant has no such campaign. */
  private async requireCampaign(tenantId: string, id: string): Promise<string> {
    const [row] = await this.db.query<{ campaign_display_id: string }>(CAMPAIGN_EXISTS_SQL, [id, tenantId]);
    if (!row) throw notFound(`Attestation campaign ${id} not found`);
    return row.campaign_display_id;
  }

  /** The header, then the items' lines in display-id order, a keyset batch per statement (no transaction held open while the client reads). */
  private async *reportLines(tenantId: string, campaignId: string): AsyncGenerator<string> {
    yield REPORT_HEADER;
    let after: ReportKey | null = null;
    for (;;) {
      const rows: { id: string; delegation_display_id: string; line: ReportLine }[] = await this.db.query(reportBatch(tenantId, campaignId, after, REPORT_BATCH));
      if (rows.length) yield rows.map((r) => reportCsvLine(r.line)).join('');
      if (rows.length < REPORT_BATCH) return;
      const last = rows[rows.length - 1];
      after = { displayId: last.delegation_display_id, id: last.id };
    }
  }
}
