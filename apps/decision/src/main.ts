import { bootstrapService } from '@ddm/platform';
import { DecisionModule } from './decision.module';
import { decisionDataSource } from './data-source';

void bootstrapService(DecisionModule, { area: 'decision', dataSource: decisionDataSource });
