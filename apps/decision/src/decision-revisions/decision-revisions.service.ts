import { Inject, Injectable } from '@nestjs/common';
import { Caller, Page, notFound } from '@ddm/contracts';
import { Db, SERVICE_CONFIG, ServiceConfig, listPage } from '@ddm/platform';
import { StoredDecisionView, toDecisionView } from '../decisions/decision-refs';
import { DecisionHistoryEntryView, DecisionRevisionView } from './dto/decision-revision.response';
import { HistoryQuery } from './dto/history.query';
import { DECISION_EXISTS_SQL, HistoryRow, REVISION_AT_SQL, historyList } from './decision-revision.sql';

/** A decision's revisions (written by every change, in decisions.service.ts): its history, and the decision at any instant. */
@Injectable()
export class DecisionRevisionsService {
  constructor(
    private readonly db: Db,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  /** Newest first unless asked otherwise. A deleted decision, like an unknown one, is a 404 (its revisions stay for the as-of read). */
  async history(caller: Caller, id: string, q: HistoryQuery): Promise<Page<DecisionHistoryEntryView>> {
    await this.requireLive(caller.tenantId, id);
    return listPage(this.db, historyList(caller.tenantId, id, q), (r: HistoryRow) => ({
      historyId: r.history_id,
      historyDate: r.history_date,
      change: r.change,
      changedFields: r.changed_fields,
      revisedBy: r.revised_by,
      revisedByUsername: r.revised_by_name,
    }));
  }

  /** The decision as it stood at `at` (any instant); before its creation, a 404. */
  async at(caller: Caller, id: string, at: string): Promise<DecisionRevisionView> {
    await this.requireLive(caller.tenantId, id);
    const [row] = await this.db.query<{ id: string; revision_date: string; snapshot: StoredDecisionView }>(REVISION_AT_SQL, [id, caller.tenantId, at]);
    if (!row) throw notFound(`Decision ${id} did not exist at ${at}`);
    return { ...toDecisionView(row.snapshot, caller, this.config.appUrl), historyId: row.id, historyDate: row.revision_date };
  }

  private async requireLive(tenantId: string, id: string): Promise<void> {
    const [row] = await this.db.query<{ is_deleted: boolean }>(DECISION_EXISTS_SQL, [id, tenantId]);
    if (!row || row.is_deleted) throw notFound(`Decision ${id} not found`);
  }
}
