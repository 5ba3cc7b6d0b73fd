import { ServiceDataSource } from '@ddm/platform';
import { NotificationsPlatform1763800000000 } from './migrations/1763800000000-notifications-platform';

/** The notifications schema: used by the service and by `migrate`. */
export const notificationsDataSource: ServiceDataSource = {
  schema: 'notifications',
  migrations: [NotificationsPlatform1763800000000],
};
