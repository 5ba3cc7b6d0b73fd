/** The SQL of each person's notification preferences. */
import { sql } from '@ddm/platform';

export interface PreferenceRow {
  tenant_id: string;
  user_id: string;
  email_digest: string;
}

export const preferenceSql = (tenantId: string, userId: string) =>
  sql`SELECT tenant_id, user_id, email_digest FROM notifications.preferences WHERE tenant_id = ${tenantId} AND user_id = ${userId}`;

export const upsertPreferenceSql = (tenantId: string, userId: string, emailDigest: string) =>
  sql`INSERT INTO notifications.preferences AS p (tenant_id, user_id, email_digest) VALUES (${tenantId}, ${userId}, ${emailDigest})
    ON CONFLICT (tenant_id, user_id) DO UPDATE SET email_digest = EXCLUDED.email_digest, updated_on = now()
    RETURNING tenant_id, user_id, email_digest`;
