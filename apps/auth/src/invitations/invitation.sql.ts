/** The SQL of invitations: who the tenant has already, and who can be invited again. */
import { Queryable } from '@ddm/platform';

/** The emails (lower case) among `emails` of the tenant's live members. */
export async function takenEmails(q: Queryable, tenantId: string, emails: readonly string[]): Promise<Set<string>> {
  const rows = await q.query<{ email: string }>(
    `SELECT lower(u.email) AS email FROM auth.tenant_users tu JOIN auth.users u ON u.id = tu.user_id
      WHERE tu.tenant_id = $1 AND lower(u.email) = ANY($2::text[]) AND NOT tu.is_deleted`,
    [tenantId, emails],
  );
  return new Set(rows.map((r) => r.email));
}

export interface Invitee {
  user_id: string;
  email: string;
  first_name: string | null;
  status: string;
}

/** The tenant's live members among `userIds`, with what an invitation email needs and their status. */
export function invitees(q: Queryable, tenantId: string, userIds: readonly string[]): Promise<Invitee[]> {
  return q.query<Invitee>(
    `SELECT tu.user_id, u.email, u.first_name, tu.status FROM auth.tenant_users tu JOIN auth.users u ON u.id = tu.user_id
      WHERE tu.tenant_id = $1 AND tu.user_id = ANY($2::uuid[]) AND NOT tu.is_deleted`,
    [tenantId, userIds],
  );
}
