import { ApiProperty } from '@nestjs/swagger';
import { TENANT_SETTINGS_DEFAULTS } from '../tenant-settings.rules';

/** A tenant's delegation settings (the defaults until the first change). */
export class TenantSettingsView {
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ description: 'Issued delegations wait for the recipient to accept them', default: false }) delegationAcceptanceRequired: boolean;
  @ApiProperty({ description: 'Issued delegations wait for an approval', default: false }) delegationApprovalRequired: boolean;
  @ApiProperty({ description: 'ISO 4217 currency code', example: 'USD', default: 'USD' }) baseCurrency: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last change; null while the tenant has the defaults' }) updatedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Name of the user who changed the settings last; null while the tenant has the defaults' })
  updatedBy: string | null;
}

/** A row of the settings statements (tenant-settings.sql.ts). */
export interface TenantSettingsRow {
  tenant_id: string;
  delegation_acceptance_required: boolean;
  delegation_approval_required: boolean;
  base_currency: string;
  /** bigint, as text. */
  version: string;
  updated_on: string;
  updated_by: string | null;
}

/** The view of a tenant's row, or of the defaults when it has none. */
export function toTenantSettingsView(tenantId: string, r: TenantSettingsRow | undefined): TenantSettingsView {
  if (!r) return { tenantId, ...TENANT_SETTINGS_DEFAULTS, updatedAt: null, updatedBy: null };
  return {
    tenantId: r.tenant_id,
    delegationAcceptanceRequired: r.delegation_acceptance_required,
    delegationApprovalRequired: r.delegation_approval_required,
    baseCurrency: r.base_currency,
    updatedAt: r.updated_on,
    updatedBy: r.updated_by,
  };
}
