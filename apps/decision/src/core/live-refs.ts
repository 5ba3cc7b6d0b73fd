/**
 * Every id a request body names must be a live record of the caller's tenant: one statement looks
 * them all up (in this service's tables and its projections of the other areas), and a 404 names
 * each field that names something else (unknown, deleted, or another tenant's), before anything is
 * written.
 */
import { FieldError, notFound } from '@ddm/contracts';
import { Queryable } from '@ddm/platform';

/** What a body may name, and where each kind lives (live rows only, but for the `any…` kinds). */
const KINDS = {
  decision: `SELECT id FROM decision.decisions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`,
  /** A decision of the tenant, deleted or not (a bulk delete or restore names deleted ones too). */
  anyDecision: `SELECT id FROM decision.decisions WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
  delegation: `SELECT id FROM decision.delegations WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status <> 'DELETED'`,
  group: `SELECT id FROM decision.group_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`,
  /** A group type in use by a live group of the tenant (the decision area keeps no list of group types). */
  groupType: `SELECT DISTINCT tenant_group_type_id AS id FROM decision.group_projection WHERE tenant_id = $1 AND tenant_group_type_id = ANY($2::uuid[]) AND NOT is_deleted`,
  authorityType: `SELECT id FROM decision.authority_type_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`,
  user: `SELECT id FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status <> 'DELETED'`,
  position: `SELECT id FROM decision.position_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`,
  section: `SELECT id FROM decision.section_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`,
  category: `SELECT id FROM decision.category_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`,
  document: `SELECT id FROM decision.document_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`,
  // Any state: a record of the tenant, deleted or not (the authority engine answers about instants before a deletion).
  anyUser: `SELECT id FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
  anyPosition: `SELECT id FROM decision.position_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
  anyGroup: `SELECT id FROM decision.group_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
  anyAuthorityType: `SELECT id FROM decision.authority_type_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
} as const;

export type RefKind = keyof typeof KINDS;

/** One id a body names: its kind, the id, and the field that carried it (`delegationGroups.0.groupId`). */
export interface NamedRef {
  kind: RefKind;
  id: string | null | undefined;
  field: string;
}

const NAMES: Record<RefKind, string> = {
  decision: 'Decision',
  anyDecision: 'Decision',
  delegation: 'Delegation',
  group: 'Group',
  groupType: 'Group type',
  authorityType: 'Authority type',
  user: 'User',
  position: 'Position',
  section: 'Decision section',
  category: 'Decision category',
  document: 'Document',
  anyUser: 'User',
  anyPosition: 'Position',
  anyGroup: 'Group',
  anyAuthorityType: 'Authority type',
};

/** A 404 naming each field whose id is not a live record of the tenant (a record in any state, for the `any…` kinds); ids compare in lower case. */
export async function requireLiveRefs(q: Queryable, tenantId: string, refs: readonly NamedRef[]): Promise<void> {
  const named = refs.filter((r): r is NamedRef & { id: string } => !!r.id).map((r) => ({ ...r, id: r.id.toLowerCase() }));
  if (!named.length) return;
  const kinds = [...new Set(named.map((r) => r.kind))];
  const statement = kinds.map((k, i) => `SELECT '${k}' AS kind, x.id FROM (${KINDS[k].replace('$2', `$${i + 2}`)}) x`).join('\nUNION ALL\n');
  const rows = await q.query<{ kind: string; id: string }>(statement, [tenantId, ...kinds.map((k) => [...new Set(named.filter((r) => r.kind === k).map((r) => r.id))])]);
  const found = new Set(rows.map((r) => `${r.kind}:${r.id}`));
  const errors: FieldError[] = named.filter((r) => !found.has(`${r.kind}:${r.id}`)).map((r) => ({ field: r.field, message: `${NAMES[r.kind]} ${r.id} not found` }));
  if (errors.length) throw notFound(errors.length === 1 ? errors[0].message : `Records not found: ${errors.slice(0, 20).map((e) => `${e.field} (${e.message})`).join('; ')}`, errors.slice(0, 50));
}

/** Each id of `ids` as a ref named by `field.<i>`. */
export function refsOf(kind: RefKind, field: string, ids: readonly string[] | null | undefined): NamedRef[] {
  return (ids ?? []).map((id, i) => ({ kind, id, field: `${field}.${i}` }));
}

/**
 * The documents a body links (`decisionDocuments.<i>.documentId`), except those the record links
 * already: a new link must name a live document of the tenant, while one deleted since it was
 * linked may stay (a client sends the list back as it read it).
 */
export function documentRefs(field: string, items: readonly { documentId: string }[] | null | undefined, linked: readonly string[] = []): NamedRef[] {
  const kept = new Set(linked.map((id) => id.toLowerCase()));
  return (items ?? []).flatMap((d, i): NamedRef[] => (kept.has(d.documentId.toLowerCase()) ? [] : [{ kind: 'document', id: d.documentId, field: `${field}.${i}.documentId` }]));
}
