import { ServiceDataSource } from '@ddm/platform';
import { SettingsPositions1764000000001 } from './migrations/1764000000001-settings-positions';
import { SettingsDelegationVersion1764000000002 } from './migrations/1764000000002-settings-delegation-version';
import { SettingsPlatform1763800000000 } from './migrations/1763800000000-settings-platform';
import { SettingsStructure1764000000000 } from './migrations/1764000000000-settings-structure';
import { SettingsOutboxTrace1764900000000 } from './migrations/1764900000000-settings-outbox-trace';
import { SettingsDecisionBuildingBlocks1765100000000 } from './migrations/1765100000000-settings-decision-building-blocks';
import { SettingsActionTemplates1765350000000 } from './migrations/1765350000000-settings-action-templates';
import { SettingsDocumentTypes1765450000000 } from './migrations/1765450000000-settings-document-types';
import { SettingsIdempotency1765720000000 } from './migrations/1765720000000-settings-idempotency';
import { SettingsTenantIsolation1765800000000 } from './migrations/1765800000000-settings-tenant-isolation';
import { SettingsAuditTrail1765800000001 } from './migrations/1765800000001-settings-audit-trail';
import { SettingsTenantOfChildRows1765800000003 } from './migrations/1765800000003-settings-tenant-of-child-rows';
import { SettingsChangeIds1766200000000 } from './migrations/1766200000000-settings-change-ids';
import { SettingsDocumentVersioning1766300000000 } from './migrations/1766300000000-settings-document-versioning';
import { SettingsAuditTrailSetBased1766500000000 } from './migrations/1766500000000-settings-audit-trail-set-based';
import { SettingsSearchUnderRls1766500000001 } from './migrations/1766500000001-settings-search-under-rls';
import { SettingsSearchAnswersRows1766600000000 } from './migrations/1766600000000-settings-search-answers-rows';

/** The settings schema: used by the service and by `migrate`. */
export const settingsDataSource: ServiceDataSource = {
  schema: 'settings',
  extensions: ['pg_trgm'],
  migrations: [
    SettingsPlatform1763800000000,
    SettingsStructure1764000000000,
    SettingsPositions1764000000001,
    SettingsDelegationVersion1764000000002,
    SettingsOutboxTrace1764900000000,
    SettingsDecisionBuildingBlocks1765100000000,
    SettingsActionTemplates1765350000000,
    SettingsDocumentTypes1765450000000,
    SettingsIdempotency1765720000000,
    SettingsTenantIsolation1765800000000,
    SettingsAuditTrail1765800000001,
    SettingsTenantOfChildRows1765800000003,
    SettingsChangeIds1766200000000,
    SettingsDocumentVersioning1766300000000,
    SettingsAuditTrailSetBased1766500000000,
    SettingsSearchUnderRls1766500000001,
    SettingsSearchAnswersRows1766600000000,
  ],
};
