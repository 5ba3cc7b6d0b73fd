import { runMigrationsCli } from '@ddm/platform';
import { notificationsDataSource } from './data-source';

void runMigrationsCli('notifications', notificationsDataSource);
