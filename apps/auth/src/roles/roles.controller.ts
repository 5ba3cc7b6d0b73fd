import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, TenantFromParam, UuidParam } from '@ddm/contracts';
import { ListRolesQuery } from './dto/list-roles.query';
import { CreateRoleDto, UpdateRoleDto } from './dto/role-change.dto';
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
  @ApiPageResponse(TenantRoleView, 'Paged tenant roles (spec §2.8)')
  @ResponseMessage('Tenant roles fetched successfully')
  list(@UuidParam('id') tenantId: string, @Query() query: ListRolesQuery): Promise<Page<Partial<TenantRoleView>>> {
    return this.roles.list(tenantId, query);
  }

  @Get(':id/roles/:roleId')
  @ApiOperation({ summary: 'Get a tenant role' })
  @ApiOkResponse({ type: TenantRoleView })
  @ResponseMessage('Tenant role fetched successfully')
  get(@UuidParam('id') tenantId: string, @UuidParam('roleId') roleId: string): Promise<TenantRoleView> {
    return this.roles.get(tenantId, roleId);
  }

  @Post(':id/roles')
  @HttpCode(200)
  @RequirePermission('manage:roles')
  @ApiOperation({ summary: 'Create a custom tenant role' })
  @ApiOkResponse({ type: TenantRoleView })
  @ResponseMessage('Tenant role created successfully')
  create(@UuidParam('id') tenantId: string, @Body() body: CreateRoleDto, @CurrentCaller() caller: Caller): Promise<TenantRoleView> {
    return this.roles.create(caller, tenantId, body);
  }

  @Patch(':id/roles/:roleId')
  @RequirePermission('manage:roles')
  @ApiOperation({
    summary: 'Rename a tenant role, change its keys or (de)activate it',
    description: 'Refused (409) when the role cannot be deactivated, and when System Admin would lose a key.',
  })
  @ApiOkResponse({ type: TenantRoleView })
  @ResponseMessage('Tenant role updated successfully')
  update(
    @UuidParam('id') tenantId: string,
    @UuidParam('roleId') roleId: string,
    @Body() body: UpdateRoleDto,
    @CurrentCaller() caller: Caller,
  ): Promise<TenantRoleView> {
    return this.roles.update(caller, tenantId, roleId, body);
  }
}
