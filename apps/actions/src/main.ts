import { bootstrapService } from '@ddm/platform';
import { ActionsModule } from './actions.module';
import { actionsDataSource } from './data-source';

void bootstrapService(ActionsModule, { area: 'actions', dataSource: actionsDataSource });
