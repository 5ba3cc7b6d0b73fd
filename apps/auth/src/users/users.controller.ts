import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { ListUsersQuery } from './dto/list-users.query';
import { TenantQuery } from './dto/tenant.query';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { ActiveTenantDto, BulkStatusUpdateDto, UpdateUserEntitiesDto } from './dto/update-user.dto';
import { BulkStatusResult, UserGroupView, UserPositionView, UserRoleView, UserView } from './dto/user.response';
import { UsersService } from './users.service';

@ApiTags('Users')
@ApiAuth()
@Controller('v1/user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'List users', description: "Users of a tenant (query tenantId, default the caller's active tenant)" })
  @ApiPageResponse(UserView, 'Paged users (spec §2.4)')
  @ResponseMessage('Users fetched successfully')
  list(@Query() query: ListUsersQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<UserView>>> {
    return this.users.list(caller.tenantId, query);
  }

  @Get('details')
  @ApiOperation({ summary: 'Get the current user in the active tenant' })
  @ApiOkResponse({ type: UserView, description: 'The caller (spec §2.4)' })
  @ResponseMessage('User details fetched successfully')
  me(@CurrentCaller() caller: Caller): Promise<UserView> {
    return this.users.getInTenant(caller.tenantId, caller.userId);
  }

  @Get('roles')
  @ApiOperation({ summary: 'Get current user roles', description: "The caller's roles in the active tenant (or the tenant named by tenantId); membership is all it needs" })
  @ApiOkResponse({ type: [UserRoleView], description: 'The caller\'s roles (spec §2.4 userRoles items)' })
  @ResponseMessage('User roles retrieved successfully')
  roles(@Query() _query: TenantQuery, @CurrentCaller() caller: Caller): Promise<UserRoleView[]> {
    return this.users.myLinks(caller.tenantId, caller.userId, 'roles');
  }

  @Get('positions')
  @ApiOperation({ summary: 'Get current user positions', description: "The caller's positions in the active tenant (or the tenant named by tenantId); membership is all it needs" })
  @ApiOkResponse({ type: [UserPositionView], description: 'The caller\'s positions (spec §2.4 userPositions items)' })
  @ResponseMessage('User positions retrieved successfully')
  positions(@Query() _query: TenantQuery, @CurrentCaller() caller: Caller): Promise<UserPositionView[]> {
    return this.users.myLinks(caller.tenantId, caller.userId, 'positions');
  }

  @Get('groups')
  @ApiOperation({ summary: 'Get current user groups', description: "The caller's groups in the active tenant (or the tenant named by tenantId), the primary organisation first; membership is all it needs" })
  @ApiOkResponse({ type: [UserGroupView], description: 'The caller\'s groups (spec §2.4 userGroups items)' })
  @ResponseMessage('User groups retrieved successfully')
  groups(@Query() _query: TenantQuery, @CurrentCaller() caller: Caller): Promise<UserGroupView[]> {
    return this.users.myLinks(caller.tenantId, caller.userId, 'groups');
  }

  @Get('tenant/:tenantId/details')
  @ApiOperation({ summary: 'Get current user details for a tenant' })
  @ApiOkResponse({ type: UserView, description: 'The caller as a user of that tenant (spec §2.4)' })
  @ResponseMessage('User details fetched successfully')
  details(@UuidParam('tenantId') tenantId: string, @CurrentCaller() caller: Caller): Promise<UserView> {
    return this.users.getInTenant(tenantId, caller.userId);
  }

  @Patch('preferences')
  @ApiOperation({ summary: "Change the caller's own preferences" })
  @ApiOkResponse({ type: UserView, description: 'The caller (spec §2.4)' })
  @ResponseMessage('Preferences updated successfully')
  preferences(@Body() body: UpdatePreferencesDto, @CurrentCaller() caller: Caller): Promise<UserView> {
    return this.users.updatePreferences(caller.tenantId, caller.userId, body);
  }

  @Patch('active-tenant')
  @ApiOperation({ summary: "Switch the caller's active tenant (must be one of their tenants)" })
  @ApiOkResponse({ type: UserView, description: 'The caller in the new active tenant (spec §2.4)' })
  @ResponseMessage('Active tenant changed successfully')
  activeTenant(@Body() body: ActiveTenantDto, @CurrentCaller() caller: Caller): Promise<UserView> {
    // The guard resolved the caller in body.tenantId: a 403 already if it is not a membership.
    return this.users.setActiveTenant(caller, body.tenantId.toLowerCase());
  }

  @Patch('bulk-status-update')
  @RequirePermission('manage:users')
  @ApiOperation({ summary: 'Set the status of users (ACTIVE, INACTIVE, INVITED, or DELETED = soft delete)' })
  @ApiOkResponse({ type: BulkStatusResult })
  @ApiNotFoundResponse({ description: "An id that is not a live member of the tenant (unknown, deleted or another tenant's), named as userIds.N; nothing was changed" })
  @ResponseMessage('User statuses updated successfully')
  bulkStatus(@Body() body: BulkStatusUpdateDto, @CurrentCaller() caller: Caller): Promise<BulkStatusResult> {
    return this.users.bulkStatus(caller, body);
  }

  @Patch('update-entities/:id')
  @RequirePermission('manage:users')
  @ApiOperation({ summary: "Change a user's names, phone, roles, positions, groups, manager and employee fields" })
  @ApiOkResponse({ type: UserView, description: 'The user (spec §2.4)' })
  @ApiNotFoundResponse({ description: "The user, or a role, position, group or manager named, is not the tenant's (errors[] names the field: roleIds.N, positionIds.N, groups.N.groupId, managerId); nothing was changed" })
  @ResponseMessage('User updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateUserEntitiesDto, @CurrentCaller() caller: Caller): Promise<UserView> {
    return this.users.updateEntities(caller, id, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a user of the tenant' })
  @ApiOkResponse({ type: UserView, description: 'The user (spec §2.4)' })
  @ResponseMessage('User fetched successfully')
  get(@UuidParam('id') id: string, @Query() _query: TenantQuery, @CurrentCaller() caller: Caller): Promise<UserView> {
    return this.users.getInTenant(caller.tenantId, id);
  }
}
