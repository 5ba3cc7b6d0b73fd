import { TENANT_SETTINGS_DEFAULTS } from './tenant-settings.rules';

/** A tenant's base currency while its settings were never changed (what other resources fall back on). */
export const DEFAULT_BASE_CURRENCY = TENANT_SETTINGS_DEFAULTS.baseCurrency;
