import { Injectable } from '@nestjs/common';
import { Caller, Page, notFound } from '@ddm/contracts';
import { Db, listPage } from '@ddm/platform';
import { ChangelogEntryView, ChangelogQuery } from './dto/delegation-changelog.dto';
import { ChangelogRow, changelogList } from './delegation-changelog.sql';

/** A delegation's change log: every revision (issue, each edit, each move, conditions, documents, invalidation) with what it changed. */
@Injectable()
export class DelegationChangelogService {
  constructor(private readonly db: Db) {}

  async changelog(caller: Caller, delegationId: string, q: ChangelogQuery): Promise<Page<ChangelogEntryView>> {
    const [row] = await this.db.query<{ status: string }>(`SELECT status FROM decision.delegations WHERE id = $1 AND tenant_id = $2`, [delegationId, caller.tenantId]);
    if (!row || row.status === 'DELETED') throw notFound(`Delegation ${delegationId} not found`);
    return listPage(this.db, changelogList(caller.tenantId, delegationId, q), (r: ChangelogRow) => ({
      id: r.id,
      delegationId: r.delegation_id,
      revisionId: r.revision_id,
      revisionDate: r.revision_date,
      revisedById: r.revised_by,
      revisedByName: r.revised_by_name,
      change: r.change,
      changes: r.changes,
    }));
  }
}
