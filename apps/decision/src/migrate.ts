import { runMigrationsCli } from '@ddm/platform';
import { decisionDataSource } from './data-source';

void runMigrationsCli('decision', decisionDataSource);
