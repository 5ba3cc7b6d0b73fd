import { UserSummary, UserSummaryEvent } from '@ddm/contracts';
import { Tx } from '@ddm/platform';
import { USER_SUMMARY_SQL } from './user.sql';

type SummaryRow = Omit<UserSummary, 'primaryOrganizationId'>;

/**
 * Queues `evt.auth.user.<verb>` for each user, carrying the §2.3 summary as it is after the
 * transaction's changes (read inside the same transaction), for other areas' projections.
 */
export async function publishUserEvents(tx: Tx, subject: string, tenantId: string, userIds: readonly string[]): Promise<void> {
  if (!userIds.length) return;
  const rows: SummaryRow[] = await tx.manager.query(USER_SUMMARY_SQL, [tenantId, userIds]);
  for (const r of rows) {
    const event: UserSummaryEvent = { tenantId, user: { ...r, primaryOrganizationId: r.primaryOrganization?.id ?? null } };
    await tx.publish(subject, event);
  }
}
