import { runMigrationsCli } from '@ddm/platform';
import { documentDataSource } from './data-source';

void runMigrationsCli('document', documentDataSource);
