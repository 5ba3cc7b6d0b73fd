import { bootstrapService } from '@ddm/platform';
import { NotificationsModule } from './notifications.module';
import { notificationsDataSource } from './data-source';

void bootstrapService(NotificationsModule, { area: 'notifications', dataSource: notificationsDataSource });
