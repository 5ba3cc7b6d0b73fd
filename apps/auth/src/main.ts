import { bootstrapService } from '@ddm/platform';
import { AuthModule } from './auth.module';
import { authDataSource } from './data-source';

void bootstrapService(AuthModule, { area: 'auth', dataSource: authDataSource });
