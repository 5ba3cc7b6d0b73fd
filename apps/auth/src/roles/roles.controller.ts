import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Page, ResponseMessage, TenantFromParam, UuidParam } from '@ddm/contracts';
import { ListRolesQuery } from './dto/list-roles.query';
import { TenantRoleView } from './dto/role.response';
import { RolesService } from './roles.service';

@ApiTags('Tenant roles')
@ApiAuth()
@Controller('v1/tenants')
@TenantFromParam('id')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get(':id/roles/list')
  @ApiOperation({ summary: 'List tenant roles' })
  @ApiOkResponse({ description: 'Paged tenant roles (spec §2.8)' })
  @ResponseMessage('Tenant roles fetched successfully')
  list(@UuidParam('id') tenantId: string, @Query() query: ListRolesQuery): Promise<Page<TenantRoleView>> {
    return this.roles.list(tenantId, query);
  }

  @Get(':id/roles/:roleId')
  @ApiOperation({ summary: 'Get a tenant role' })
  @ApiOkResponse({ type: TenantRoleView })
  @ResponseMessage('Tenant role fetched successfully')
  get(@UuidParam('id') tenantId: string, @UuidParam('roleId') roleId: string): Promise<TenantRoleView> {
    return this.roles.get(tenantId, roleId);
  }
}
