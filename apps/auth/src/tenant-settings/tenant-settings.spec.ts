import 'reflect-metadata';
import { validateEvent } from '@ddm/contracts';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { toTenantSettingsView } from './dto/tenant-settings.response';
import { UpdateTenantSettingsDto } from './dto/update-tenant-settings.dto';
import { TENANT_SETTINGS_DEFAULTS, isCurrencyCode, nothingToChange } from './tenant-settings.rules';

const T = '01890a5d-ac96-774b-bcce-b302099a8057';

const problems = async (plain: object) =>
  (await validate(plainToInstance(UpdateTenantSettingsDto, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

describe('tenant settings rules', () => {
  it('the defaults: no acceptance, no approval, USD', () => {
    expect(TENANT_SETTINGS_DEFAULTS).toEqual({ delegationAcceptanceRequired: false, delegationApprovalRequired: false, baseCurrency: 'USD' });
  });

  it('a currency is an upper-case ISO 4217 code the runtime knows', () => {
    for (const c of ['USD', 'EUR', 'JPY', 'GBP', 'CHF']) expect(isCurrencyCode(c)).toBe(true);
    for (const c of ['usd', 'XYZ', 'US', 'USDX', '', 7, null]) expect(isCurrencyCode(c)).toBe(false);
  });

  it('a change names at least one setting; false counts', () => {
    expect(nothingToChange({})).toBe('Nothing to change: send at least one of delegationAcceptanceRequired, delegationApprovalRequired, baseCurrency');
    expect(nothingToChange({ delegationApprovalRequired: false })).toBeNull();
    expect(nothingToChange({ baseCurrency: 'EUR' })).toBeNull();
  });
});

describe('tenant settings change (DTO)', () => {
  it('accepts booleans and an ISO 4217 code, each optional', async () => {
    expect(await problems({})).toEqual([]);
    expect(await problems({ delegationAcceptanceRequired: true, delegationApprovalRequired: false, baseCurrency: 'EUR' })).toEqual([]);
  });

  it('refuses a non-boolean flag, null, an unknown or lower-case currency, and unknown fields', async () => {
    expect(await problems({ delegationAcceptanceRequired: 'true', delegationApprovalRequired: 1 })).toEqual(['delegationAcceptanceRequired', 'delegationApprovalRequired']);
    expect(await problems({ delegationApprovalRequired: null, baseCurrency: null })).toEqual(['baseCurrency', 'delegationApprovalRequired']);
    expect(await problems({ baseCurrency: 'XYZ' })).toEqual(['baseCurrency']);
    expect(await problems({ baseCurrency: 'eur' })).toEqual(['baseCurrency']);
    expect(await problems({ tenantName: 'x' })).toEqual(['tenantName']);
  });
});

describe('tenant settings view and event', () => {
  it('a tenant without a row answers the defaults, never changed', () => {
    expect(toTenantSettingsView(T, undefined)).toEqual({ tenantId: T, ...TENANT_SETTINGS_DEFAULTS, updatedAt: null, updatedBy: null });
  });

  it('a row answers its values, when and by whom they changed', () => {
    const row = {
      tenant_id: T,
      delegation_acceptance_required: true,
      delegation_approval_required: false,
      base_currency: 'EUR',
      version: '3',
      updated_on: '2026-01-02T03:04:05.678Z',
      updated_by: 'Ada Admin',
    };
    expect(toTenantSettingsView(T, row)).toEqual({
      tenantId: T,
      delegationAcceptanceRequired: true,
      delegationApprovalRequired: false,
      baseCurrency: 'EUR',
      updatedAt: '2026-01-02T03:04:05.678Z',
      updatedBy: 'Ada Admin',
    });
  });

  it('the event carries the settings whole and a version', () => {
    const event = { tenantId: T, delegationAcceptanceRequired: true, delegationApprovalRequired: false, baseCurrency: 'EUR', version: 1 };
    expect(validateEvent('evt.auth.tenant.settings-updated', event)).toEqual([]);
    expect(validateEvent('evt.auth.tenant.settings-updated', { ...event, version: undefined, delegationApprovalRequired: 'no' })).toEqual([
      'delegationApprovalRequired must be a boolean',
      'version must be a non-negative integer',
    ]);
  });
});
