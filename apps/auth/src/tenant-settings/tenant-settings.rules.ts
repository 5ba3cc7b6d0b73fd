/** Pure rules of a tenant's delegation settings: the defaults, the currencies, what a change must name. */

/** The settings a change may set (at least one of them). */
export const TENANT_SETTINGS_FIELDS = ['delegationAcceptanceRequired', 'delegationApprovalRequired', 'baseCurrency'] as const;
export type TenantSettingsField = (typeof TENANT_SETTINGS_FIELDS)[number];

export interface TenantSettingsValues {
  delegationAcceptanceRequired: boolean;
  delegationApprovalRequired: boolean;
  baseCurrency: string;
}

/** What a tenant has before its first change (no row). */
export const TENANT_SETTINGS_DEFAULTS: Readonly<TenantSettingsValues> = Object.freeze({
  delegationAcceptanceRequired: false,
  delegationApprovalRequired: false,
  baseCurrency: 'USD',
});

/** ISO 4217 codes as the runtime knows them (upper case: USD, EUR, ...). */
export const CURRENCY_CODES: readonly string[] = Intl.supportedValuesOf('currency');
const CURRENCIES = new Set(CURRENCY_CODES);

export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && CURRENCIES.has(value);
}

/** The 400 text of a change that names no setting; null when it names one. */
export function nothingToChange(change: Partial<Record<TenantSettingsField, unknown>>): string | null {
  return TENANT_SETTINGS_FIELDS.some((f) => change[f] !== undefined) ? null : `Nothing to change: send at least one of ${TENANT_SETTINGS_FIELDS.join(', ')}`;
}
