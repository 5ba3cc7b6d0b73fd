import { bootstrapService } from '@ddm/platform';
import { MatrixModule } from './matrix.module';
import { matrixDataSource } from './data-source';

void bootstrapService(MatrixModule, { area: 'matrix', dataSource: matrixDataSource });
