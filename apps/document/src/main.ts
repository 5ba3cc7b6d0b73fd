import { bootstrapService } from '@ddm/platform';
import { DocumentModule } from './document.module';
import { documentDataSource } from './data-source';

void bootstrapService(DocumentModule, { area: 'document', dataSource: documentDataSource });
