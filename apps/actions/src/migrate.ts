import { runMigrationsCli } from '@ddm/platform';
import { actionsDataSource } from './data-source';

void runMigrationsCli('actions', actionsDataSource);
