/** The SQL of the tenant's template overrides. */
import { sql } from '@ddm/platform';

export interface OverrideRow {
  template_key: string;
  title_template: string;
  message_template: string;
}

/** The tenant's overrides (all of them, or of one key). */
export const overridesSql = (tenantId: string, key?: string) =>
  key
    ? sql`SELECT template_key, title_template, message_template FROM notifications.template_overrides WHERE tenant_id = ${tenantId} AND template_key = ${key}`
    : sql`SELECT template_key, title_template, message_template FROM notifications.template_overrides WHERE tenant_id = ${tenantId}`;

export const upsertOverrideSql = (tenantId: string, key: string, title: string, message: string, by: string) =>
  sql`INSERT INTO notifications.template_overrides (tenant_id, template_key, title_template, message_template, updated_by)
    VALUES (${tenantId}, ${key}, ${title}, ${message}, ${by})
    ON CONFLICT (tenant_id, template_key) DO UPDATE SET title_template = EXCLUDED.title_template, message_template = EXCLUDED.message_template, updated_on = now(), updated_by = EXCLUDED.updated_by
    RETURNING template_key, title_template, message_template`;
