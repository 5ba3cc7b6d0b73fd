import { INestApplicationContext } from '@nestjs/common';
import { ALL_PERMISSION_KEYS, Caller } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { DocumentsService } from './documents/documents.service';
import { CreateDocumentDto } from './documents/dto/document-change.dto';

interface SeedDocument {
  name: string;
  description: string;
  type: 'Policy' | 'Procedure' | 'Charter' | 'Resolution' | 'Contract';
  status?: 'DRAFT' | 'PUBLISHED';
  /** Restricted to these groups (by name); shared with the whole tenant otherwise. */
  restrictedTo?: string[];
  /** The review is requested at once from the manager (the approval from the admin follows it). */
  inReview?: boolean;
  owner?: 'manager' | 'user';
}

/** The delegation-of-authority policy: the decisions of the Finance section link it. */
export const DOA_POLICY = 'Delegation of Authority Policy';

/** Demo Co's documents: 15 policies, procedures, charters, resolutions and contracts, some restricted, one in review. */
const DOCUMENTS: SeedDocument[] = [
  { name: DOA_POLICY, description: 'Who may decide what, up to which limit, and how authority is handed on.', type: 'Policy' },
  { name: 'Procurement Policy', description: 'How the group buys goods and services.', type: 'Policy' },
  { name: 'Treasury Policy', description: 'Bank accounts, hedging and intercompany funding.', type: 'Policy', restrictedTo: ['Finance'] },
  { name: 'Travel and Expenses Policy', description: 'What may be booked and claimed.', type: 'Policy', owner: 'manager' },
  { name: 'Information Security Policy', description: 'Protecting the group’s information.', type: 'Policy', restrictedTo: ['Engineering', 'Legal'] },
  { name: 'Anti-Bribery Policy', description: 'Gifts, hospitality and third parties.', type: 'Policy', status: 'DRAFT', inReview: true },
  { name: 'Purchase Order Procedure', description: 'Raising and approving purchase orders.', type: 'Procedure' },
  { name: 'Supplier Onboarding Procedure', description: 'Checks before a supplier is approved.', type: 'Procedure', owner: 'user' },
  { name: 'Month-End Close Procedure', description: 'Closing the books each month.', type: 'Procedure', restrictedTo: ['Finance'] },
  { name: 'Board Charter', description: 'The board’s role, composition and meetings.', type: 'Charter' },
  { name: 'Audit Committee Charter', description: 'The committee’s remit over reporting and controls.', type: 'Charter', restrictedTo: ['Finance', 'Legal'] },
  { name: 'Board Resolution 2026-01: Delegations', description: 'The board adopts the delegation of authority policy.', type: 'Resolution' },
  { name: 'Board Resolution 2026-02: Capital Plan', description: 'The board approves the annual capital plan.', type: 'Resolution', restrictedTo: ['Demo Co Holdings'] },
  { name: 'Master Services Agreement Template', description: 'The standard terms for services customers.', type: 'Contract', status: 'DRAFT' },
  { name: 'Office Lease: New York HQ', description: 'The lease of the New York headquarters.', type: 'Contract', restrictedTo: ['New York HQ'] },
];

export interface DocumentSeedResult {
  documents: number;
  /** Id of the delegation-of-authority policy (Demo Co only). */
  doaPolicyId?: string;
}

const PROJECTIONS_TIMEOUT_MS = 60_000;

/**
 * Demo Co's documents (other tenants get none). Safe to run again: a document already there by
 * name is kept. The users, groups and document types they name come from the other areas' events,
 * so the seed first waits for the projections to hold them; everything goes through the service.
 */
export async function seedDocuments(
  app: INestApplicationContext,
  tenant: { id: string; name: string; users: { id: string; email: string; role: string }[] },
  expected: { groups: number },
): Promise<DocumentSeedResult> {
  const db = app.get(Db);
  if (tenant.name !== 'Demo Co') return countOf(db, tenant.id);
  await waitForProjections(db, tenant.id, { groups: expected.groups, documentTypes: 5, users: tenant.users.length });
  const idsOf = async (table: string, column: string) =>
    new Map((await db.query<{ id: string; name: string }>(`SELECT id, ${column} AS name FROM document.${table} WHERE tenant_id = $1 AND NOT is_deleted`, [tenant.id])).map((r) => [r.name, r.id]));
  const groups = await idsOf('group_projection', 'group_name');
  const types = await idsOf('document_type_projection', 'document_type_name');
  const userOf = (name: string) => tenant.users.find((u) => u.email === `${name}@demo.test`)!;
  const admin = userOf('admin');
  const caller: Caller = {
    userId: admin.id,
    tenantId: tenant.id,
    email: admin.email,
    name: 'Seed',
    roleIds: [],
    keys: new Set(ALL_PERMISSION_KEYS),
    claims: { sub: admin.id, iss: 'seed', aud: 'seed', exp: 0 },
  };
  const documents = app.get(DocumentsService);
  for (const d of DOCUMENTS) {
    const [existing] = await db.query(`SELECT 1 FROM document.documents WHERE tenant_id = $1 AND lower(document_name) = lower($2) AND NOT is_deleted`, [tenant.id, d.name]);
    if (existing) continue;
    const slug = d.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    const body: CreateDocumentDto = {
      documentName: d.name,
      documentDescription: d.description,
      documentTypeId: types.get(d.type)!,
      documentStatus: d.status ?? 'PUBLISHED',
      documentSharingType: d.restrictedTo ? 'RESTRICTED' : 'TENANT',
      documentUploadType: 'LINKED',
      documentUrl: `https://intranet.demo.test/documents/${slug}.pdf`,
      documentMetadata: JSON.stringify({ source: 'seed' }),
      documentOwnerId: d.owner ? userOf(d.owner).id : admin.id,
      responsibleUserId: d.owner ? userOf(d.owner).id : admin.id,
      ...(d.restrictedTo ? { documentSharingGroups: d.restrictedTo.map((name) => ({ groupId: groups.get(name)! })) } : {}),
      ...(d.inReview ? { reviewerUserId: userOf('manager').id, approverUserId: admin.id } : {}),
    };
    await documents.create(caller, body);
  }
  return countOf(db, tenant.id);
}

async function waitForProjections(db: Db, tenantId: string, expected: Record<string, number>): Promise<void> {
  const deadline = Date.now() + PROJECTIONS_TIMEOUT_MS;
  for (;;) {
    const [have] = await db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM document.group_projection WHERE tenant_id = $1 AND NOT is_deleted) AS groups,
              (SELECT count(*)::int FROM document.document_type_projection WHERE tenant_id = $1 AND NOT is_deleted) AS "documentTypes",
              (SELECT count(*)::int FROM document.user_projection WHERE tenant_id = $1 AND status <> 'DELETED') AS users`,
      [tenantId],
    );
    const missing = Object.keys(expected).filter((k) => have[k] < expected[k]);
    if (!missing.length) return;
    if (Date.now() > deadline) {
      throw new Error(`document seed: the projections still lack records after ${PROJECTIONS_TIMEOUT_MS} ms (${missing.map((k) => `${k} ${have[k]}/${expected[k]}`).join(', ')})`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function countOf(db: Db, tenantId: string): Promise<DocumentSeedResult> {
  const [row] = await db.query<{ documents: number; doa: string | null }>(
    `SELECT count(*)::int AS documents, (SELECT id FROM document.documents WHERE tenant_id = $1 AND document_name = $2 AND NOT is_deleted) AS doa
       FROM document.documents WHERE tenant_id = $1 AND NOT is_deleted`,
    [tenantId, DOA_POLICY],
  );
  return { documents: row.documents, ...(row.doa ? { doaPolicyId: row.doa } : {}) };
}
