import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DecisionRolesService } from './decision-roles.service';
import { CreateDecisionRoleDto, UpdateDecisionRoleDto } from './dto/decision-role-change.dto';
import { DecisionRoleView } from './dto/decision-role.response';
import { ListDecisionRolesQuery } from './dto/list-decision-roles.query';

@ApiTags('Decision roles')
@ApiAuth()
@Controller('v1/decision-roles')
export class DecisionRolesController {
  constructor(private readonly roles: DecisionRolesService) {}

  @Get()
  @ApiOperation({ summary: 'List decision roles', description: 'Paged; deleted roles are not listed. Sorted by role name unless sortBy says otherwise.' })
  @ApiPageResponse(DecisionRoleView, 'Paged decision roles (spec §2.7)')
  @ResponseMessage('Decision roles list retrieved successfully')
  list(@Query() query: ListDecisionRolesQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<DecisionRoleView>>> {
    return this.roles.list(caller.tenantId, query);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Create a decision role', description: 'Refused (409) when a role of the tenant already has the name, in any case.' })
  @ApiOkResponse({ type: DecisionRoleView })
  @ApiBadRequestResponse({ description: 'roleName missing or longer than 50, unknown status or field' })
  @ApiConflictResponse({ description: 'The name is taken in the tenant' })
  @ResponseMessage('Decision role created successfully')
  create(@Body() body: CreateDecisionRoleDto, @CurrentCaller() caller: Caller): Promise<DecisionRoleView> {
    return this.roles.create(caller.tenantId, body, caller.userId);
  }

  @Patch(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: 'Update a decision role',
    description: 'Rename (409 onto a taken name), change the status, or delete softly with isDeleted: true. A deleted role is a 404 afterwards.',
  })
  @ApiOkResponse({ type: DecisionRoleView })
  @ApiBadRequestResponse({ description: 'Nothing to change, roleName longer than 50, unknown status or field, malformed id' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s decision role' })
  @ApiConflictResponse({ description: 'The new name is taken in the tenant' })
  @ResponseMessage('Decision role updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateDecisionRoleDto, @CurrentCaller() caller: Caller): Promise<DecisionRoleView> {
    return this.roles.update(caller.tenantId, id, body, caller.userId);
  }
}
