import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, ResponseMessage, TenantFromParam, UuidParam } from '@ddm/contracts';
import { TenantView, UserTenantView } from './dto/tenant.response';
import { TenantsService } from './tenants.service';

@ApiTags('Tenants')
@ApiAuth()
@Controller('v1/tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Get('user/list-tenants')
  @ApiOperation({ summary: "The caller's tenants" })
  @ApiOkResponse({ type: [UserTenantView] })
  @ResponseMessage('Tenants fetched successfully')
  listMine(@CurrentCaller() caller: Caller): Promise<UserTenantView[]> {
    return this.tenants.listForUser(caller.userId);
  }

  @Get(':id')
  @TenantFromParam('id')
  @ApiOperation({ summary: 'Get a tenant (the caller must be a member)' })
  @ApiOkResponse({ type: TenantView })
  @ResponseMessage('Tenant fetched successfully')
  get(@UuidParam('id') tenantId: string): Promise<TenantView> {
    return this.tenants.get(tenantId);
  }
}
