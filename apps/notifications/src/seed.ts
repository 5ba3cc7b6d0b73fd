import { INestApplicationContext } from '@nestjs/common';
import { Db } from '@ddm/platform';
import { TemplateKey } from './core/template.rules';
import { NotificationRefs, NotificationSpec } from './notifications/notification-refs';

interface SeedTenant {
  id: string;
  name: string;
  users: { id: string; email: string; role: string }[];
}

/** A few notifications per person besides those the seeded delegations make (by events): one of each kind, some read, some weeks old. */
const SEEDED: { key: TemplateKey; placeholders: Record<string, string>; entityType: string; path: string; read?: boolean; daysAgo?: number }[] = [
  { key: 'ACTION_ASSIGNED', placeholders: { actionId: '10000', actionName: 'Review the Q3 delegation matrix' }, entityType: 'action', path: '/actions' },
  { key: 'DOCUMENT_REVIEW_REQUESTED', placeholders: { documentName: 'Procurement Policy', documentDisplayId: '10001' }, entityType: 'document', path: '/documents', daysAgo: 3 },
  { key: 'JOB_COMPLETED', placeholders: { jobKind: 'bulk-duplicate', jobStatus: 'COMPLETED', total: '5', succeeded: '5', failed: '0' }, entityType: 'job', path: '/jobs', read: true, daysAgo: 40 },
  { key: 'ACTION_OVERDUE', placeholders: { actionId: '10002', actionName: 'Sign the supplier contract' }, entityType: 'action', path: '/actions', read: true, daysAgo: 100 },
];

/**
 * Seeds each person of the tenant with SEEDED, through the service (rendered from the tenant's
 * templates, events published); safe to run twice (each has a natural key). Answers how many exist.
 */
export async function seedNotifications(app: INestApplicationContext, tenant: SeedTenant): Promise<{ notifications: number }> {
  const notifications = app.get(NotificationRefs);
  const db = app.get(Db);
  const userIds = tenant.users.map((u) => u.id);
  await db.transaction(async (tx) => {
    for (const [i, n] of SEEDED.entries()) {
      const spec: NotificationSpec = {
        tenantId: tenant.id,
        templateKey: n.key,
        placeholders: n.placeholders,
        entityType: n.entityType,
        entityId: null,
        actionUrl: n.path,
        payload: null,
        sourceKey: `seed:${i}`,
        createdBy: null,
      };
      const rows = await notifications.notify(tx, spec, userIds, []);
      if (!rows.length) continue;
      await tx.query(
        `UPDATE notifications.notifications SET created_at = now() - make_interval(days => $2::int),
           status = CASE WHEN $3::boolean THEN 'READ' ELSE status END, read_at = CASE WHEN $3::boolean THEN now() END
         WHERE id = ANY($1::uuid[])`,
        [rows.map((r) => r.id), n.daysAgo ?? 0, n.read ?? false],
      );
    }
  });
  const [c] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications.notifications WHERE tenant_id = $1`, [tenant.id]);
  return { notifications: c.n };
}
