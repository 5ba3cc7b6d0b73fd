import { ServiceDataSource } from '@ddm/platform';
import { NotificationsPlatform1763800000000 } from './migrations/1763800000000-notifications-platform';
import { NotificationsOutboxTrace1764900000000 } from './migrations/1764900000000-notifications-outbox-trace';
import { NotificationsCore1765600000000 } from './migrations/1765600000000-notifications-core';
import { NotificationsDelegations1765600000001 } from './migrations/1765600000001-notifications-delegations';
import { NotificationsCounts1765600000002 } from './migrations/1765600000002-notifications-counts';
import { NotificationsIdempotency1765720000000 } from './migrations/1765720000000-notifications-idempotency';
import { NotificationsTenantIsolation1765800000000 } from './migrations/1765800000000-notifications-tenant-isolation';
import { NotificationsAuditTrail1765800000001 } from './migrations/1765800000001-notifications-audit-trail';
import { NotificationsPositionHolders1766000000000 } from './migrations/1766000000000-notifications-position-holders';
import { NotificationsChangeIds1766200000000 } from './migrations/1766200000000-notifications-change-ids';
import { NotificationsStreamTickets1766400000000 } from './migrations/1766400000000-notifications-stream-tickets';
import { NotificationsAuditTrailSetBased1766500000000 } from './migrations/1766500000000-notifications-audit-trail-set-based';

/** The notifications schema: used by the service and by `migrate`. */
export const notificationsDataSource: ServiceDataSource = {
  schema: 'notifications',
  migrations: [
    NotificationsPlatform1763800000000,
    NotificationsOutboxTrace1764900000000,
    NotificationsCore1765600000000,
    NotificationsDelegations1765600000001,
    NotificationsCounts1765600000002,
    NotificationsIdempotency1765720000000,
    NotificationsTenantIsolation1765800000000,
    NotificationsAuditTrail1765800000001,
    NotificationsPositionHolders1766000000000,
    NotificationsChangeIds1766200000000,
    NotificationsStreamTickets1766400000000,
    NotificationsAuditTrailSetBased1766500000000,
  ],
};
