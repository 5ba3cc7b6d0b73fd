import { Injectable } from '@nestjs/common';
import { AUTH_EVENT_SUBJECTS, Caller, badRequest, notFound } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { TenantSettingsRow, TenantSettingsView, toTenantSettingsView } from './dto/tenant-settings.response';
import { UpdateTenantSettingsDto } from './dto/update-tenant-settings.dto';
import { TENANT_SETTINGS_DEFAULTS, nothingToChange } from './tenant-settings.rules';
import { CHANGE_TENANT_SETTINGS_SQL, TENANT_SETTINGS_SQL } from './tenant-settings.sql';

@Injectable()
export class TenantSettingsService {
  constructor(private readonly db: Db) {}

  /** The settings of the caller's tenant; the defaults when it never changed them. */
  async get(caller: Caller, tenantId: string): Promise<TenantSettingsView> {
    refuseOtherTenant(caller, tenantId);
    const [row] = await this.db.query<TenantSettingsRow>(TENANT_SETTINGS_SQL, [tenantId]);
    return toTenantSettingsView(tenantId, row);
  }

  /**
   * Sets the named settings (the others keep their value) and publishes the settings whole, with
   * the tenant's next version, in the same transaction.
   */
  async update(caller: Caller, tenantId: string, dto: UpdateTenantSettingsDto): Promise<TenantSettingsView> {
    const nothing = nothingToChange(dto);
    if (nothing) throw badRequest(nothing);
    refuseOtherTenant(caller, tenantId);
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<TenantSettingsRow>(CHANGE_TENANT_SETTINGS_SQL, [
        tenantId,
        dto.delegationAcceptanceRequired ?? null,
        dto.delegationApprovalRequired ?? null,
        dto.baseCurrency ?? null,
        dto.delegationAcceptanceRequired ?? TENANT_SETTINGS_DEFAULTS.delegationAcceptanceRequired,
        dto.delegationApprovalRequired ?? TENANT_SETTINGS_DEFAULTS.delegationApprovalRequired,
        dto.baseCurrency ?? TENANT_SETTINGS_DEFAULTS.baseCurrency,
        caller.userId,
      ]);
      await tx.publish(AUTH_EVENT_SUBJECTS.tenantSettingsUpdated, {
        tenantId,
        delegationAcceptanceRequired: row.delegation_acceptance_required,
        delegationApprovalRequired: row.delegation_approval_required,
        baseCurrency: row.base_currency,
        version: Number(row.version),
      });
      return toTenantSettingsView(tenantId, row);
    });
  }
}

/**
 * The path names the tenant; the caller acts in the request's tenant, their active one unless the
 * token or the query names another (the guard checked that membership and, for a change, the
 * permission there). Another tenant's id is a 404, as every other tenant's id is.
 */
function refuseOtherTenant(caller: Caller, tenantId: string): void {
  if (caller.tenantId.toLowerCase() !== tenantId) throw notFound(`Tenant ${tenantId} not found`);
}
