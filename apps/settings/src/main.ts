import { bootstrapService } from '@ddm/platform';
import { SettingsModule } from './settings.module';
import { settingsDataSource } from './data-source';

void bootstrapService(SettingsModule, { area: 'settings', dataSource: settingsDataSource });
