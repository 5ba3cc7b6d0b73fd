/**
 * Delegations' revisions as chain links, read once per process. A revision never changes once
 * written (a new one is added, the old one only gets its end), so what a revision id names can be
 * kept: the authority engine's statements find, in the current state, which revisions a check or a
 * holders list stands on (that part always runs), and only the snapshots of revisions not seen
 * before are read (LINKS_SQL). The links above a holder are shared by every check of the decision,
 * so most of a busy tenant's checks read no snapshot at all. Kept with what every read derives from
 * them (the link the rules evaluate, its types, its limits' ranks), so a holders list of 10,000
 * derives nothing again. Bounded (LINKS_KEPT, least recently used out); an id of a transaction
 * that rolled back (what-if) is never named again and ages out.
 */
import { LRUCache } from 'lru-cache';
import { Queryable, prepared } from '@ddm/platform';
import { ChainLink, Snapshot, limitRank, toLink } from './authority.rules';
import { LINKS_SQL } from './authority.sql';

/**
 * How many links are kept: a batch of 1,000 checks at depth 8 and a decision held by 10,000 (some
 * 1.8 KB of heap each with what is derived: 20,000 are some 35 MB, within the smallest pod's 256 MiB).
 */
const LINKS_KEPT = 20_000;

/** A revision as a link, and what is derived from it. Shared: read it, never change it. */
export interface RevisionLink {
  snapshot: Snapshot;
  link: ChainLink;
  /** Its authority types, lower case. */
  typeIds: ReadonlySet<string>;
  /** Per type (lower case), the rank of its limit (limitRank: the higher, the more it allows). */
  ranks: ReadonlyMap<string, bigint>;
  /** Its display id as a number (delegation order). */
  order: number;
}

const kept = new LRUCache<string, RevisionLink>({ max: LINKS_KEPT });

/** One plan (a probe of the primary key per id), as the checks' statement has: the two run one after the other on a connection. */
const LINKS = prepared('authority.links', LINKS_SQL, { genericPlan: true });

function derive(snapshot: Snapshot): RevisionLink {
  const ranks = new Map<string, bigint>();
  for (const a of snapshot.delegationAuthorities) {
    const typeId = a.authorityTypeId.toLowerCase();
    const rank = limitRank(a);
    if (!ranks.has(typeId) || rank > ranks.get(typeId)!) ranks.set(typeId, rank);
  }
  return { snapshot, link: toLink(snapshot), typeIds: new Set(ranks.keys()), ranks, order: Number(snapshot.delegationDisplayId) };
}

/** The links of the revisions, by revision id (ids the caller read in the tenant). */
export async function revisionLinks(db: Queryable, tenantId: string, revisionIds: readonly string[]): Promise<Map<string, RevisionLink>> {
  const out = new Map<string, RevisionLink>();
  const missing = new Set<string>();
  for (const id of revisionIds) {
    if (out.has(id) || missing.has(id)) continue;
    const link = kept.get(id);
    if (link) out.set(id, link);
    else missing.add(id);
  }
  if (missing.size) {
    for (const r of await db.query<{ id: string; link: Snapshot }>(LINKS, [tenantId, [...missing]])) {
      const link = derive(r.link);
      kept.set(r.id, link);
      out.set(r.id, link);
    }
  }
  return out;
}
