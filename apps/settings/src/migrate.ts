import { runMigrationsCli } from '@ddm/platform';
import { settingsDataSource } from './data-source';

void runMigrationsCli('settings', settingsDataSource);
