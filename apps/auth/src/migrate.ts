import { runMigrationsCli } from '@ddm/platform';
import { authDataSource } from './data-source';

void runMigrationsCli('auth', authDataSource);
