import { ServiceDataSource } from '@ddm/platform';
import { SettingsPlatform1763800000000 } from './migrations/1763800000000-settings-platform';
import { SettingsStructure1764000000000 } from './migrations/1764000000000-settings-structure';

/** The settings schema: used by the service and by `migrate`. */
export const settingsDataSource: ServiceDataSource = {
  schema: 'settings',
  entities: [],
  migrations: [SettingsPlatform1763800000000, SettingsStructure1764000000000],
};
