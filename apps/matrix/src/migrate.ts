import { runMigrationsCli } from '@ddm/platform';
import { matrixDataSource } from './data-source';

void runMigrationsCli('matrix', matrixDataSource);
