import { Injectable } from '@nestjs/common';
import { Caller, Page, badRequest, missingIds, missingIdsError, notFound } from '@ddm/contracts';
import { Db, listPage } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { MAX_CAMPAIGN_ITEMS, ReportLine, REPORT_HEADER, dueDateProblem, normalizeScope, reportCsvLine, reportFileName } from './attestation.rules';
import { CAMPAIGN_BY_ID_SQL, CAMPAIGN_EXISTS_SQL, OpenedItem, ReportKey, campaignList, insertItems, itemList, reportBatch, scopeRefs } from './attestation.sql';
import { Answer, CampaignRow, recordAttestationAnswer } from './attestation-refs';
import { CreateAttestationCampaignDto, RespondAttestationDto } from './dto/attestation-change.dto';
import { ListAttestationCampaignsQuery, ListAttestationItemsQuery } from './dto/attestation-query.dto';
import { AttestationCampaignView, AttestationItemView, toItemEvent } from './dto/attestation.response';

/** Lines of the report read per statement while it streams (memory holds one batch). */
const REPORT_BATCH = 500;

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
    return this.db.transaction((tx) => recordAttestationAnswer(tx, answer));
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
