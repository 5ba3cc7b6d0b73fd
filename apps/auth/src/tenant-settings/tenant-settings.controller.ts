import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { TenantSettingsView } from './dto/tenant-settings.response';
import { UpdateTenantSettingsDto } from './dto/update-tenant-settings.dto';
import { TenantSettingsService } from './tenant-settings.service';

const NOT_FOUND = "Another tenant's id: {id} is not the request's tenant (the query's tenantId, else the token's tid, else the caller's active tenant)";

/**
 * A tenant's delegation settings. No `@TenantFromParam`: the guard resolves the caller in the
 * request's tenant as it does for every route (the query's tenantId, else the token's tid, else
 * the active tenant), and a path naming another tenant is a 404 (the service checks it), where
 * `@TenantFromParam` would answer 403.
 */
@ApiTags('Tenant settings')
@ApiAuth()
@Controller('v1/tenants')
export class TenantSettingsController {
  constructor(private readonly settings: TenantSettingsService) {}

  @Get(':id/settings')
  @ApiOperation({ summary: "Get the tenant's delegation settings", description: 'The defaults (false, false, USD) until the first change.' })
  @ApiOkResponse({ type: TenantSettingsView })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ResponseMessage('Tenant settings fetched successfully')
  get(@UuidParam('id') tenantId: string, @CurrentCaller() caller: Caller): Promise<TenantSettingsView> {
    return this.settings.get(caller, tenantId);
  }

  /** The product's name for the read (Aptly API reference, "Get tenant settings"). */
  @Get(':id/get-settings')
  @ApiOperation({ summary: "Get the tenant's delegation settings (alias)", description: 'The same answer as GET /auth/v1/tenants/{id}/settings, under the name the product uses.' })
  @ApiOkResponse({ type: TenantSettingsView })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ResponseMessage('Tenant settings fetched successfully')
  getAlias(@UuidParam('id') tenantId: string, @CurrentCaller() caller: Caller): Promise<TenantSettingsView> {
    return this.settings.get(caller, tenantId);
  }

  @Patch(':id/settings')
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: "Change the tenant's delegation settings",
    description: 'Sets the fields sent (at least one); the others keep their value. Publishes evt.auth.tenant.settings-updated with the settings and their new version.',
  })
  @ApiOkResponse({ type: TenantSettingsView })
  @ApiBadRequestResponse({ description: 'Nothing to change, a non-boolean flag, a baseCurrency that is no ISO 4217 code, null, an unknown field, a malformed id' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ResponseMessage('Tenant settings updated successfully')
  update(@UuidParam('id') tenantId: string, @Body() body: UpdateTenantSettingsDto, @CurrentCaller() caller: Caller): Promise<TenantSettingsView> {
    return this.settings.update(caller, tenantId, body);
  }
}
