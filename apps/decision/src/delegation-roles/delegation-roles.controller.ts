import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DelegationRoleView, RolesQuery, UpdateDelegationRoleDto } from './dto/delegation-role.dto';
import { DelegationRolesService } from './delegation-roles.service';

@ApiTags('Delegation roles')
@ApiAuth()
@Controller('v1/delegations')
export class RolesController {
  constructor(private readonly roles: DelegationRolesService) {}

  @Get(':delegationHistoryId/roles-history')
  @ApiOperation({
    summary: 'Delegation roles as they stood at a revision',
    description: "Given a delegation history id (an entry of the delegation's changelog): the roles set on it then. Given a delegation's id: as they stand now.",
  })
  @ApiPageResponse(DelegationRoleView, 'Paged delegation roles')
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's" })
  @ResponseMessage('Delegation role history retrieved successfully')
  history(@UuidParam('delegationHistoryId') id: string, @Query() query: RolesQuery, @CurrentCaller() caller: Caller): Promise<Page<DelegationRoleView>> {
    return this.roles.history(caller, id, query);
  }

  @Get(':delegationId/roles')
  @ApiOperation({ summary: "A delegation's roles", description: "The tenant's active decision roles, each with how the delegation fills it (INACTIVE with no designees while not set)." })
  @ApiPageResponse(DelegationRoleView, 'Paged delegation roles')
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's" })
  @ResponseMessage('Delegation roles retrieved successfully')
  list(@UuidParam('delegationId') id: string, @Query() query: RolesQuery, @CurrentCaller() caller: Caller): Promise<Page<DelegationRoleView>> {
    return this.roles.list(caller, id, query);
  }

  @Patch(':delegationId/roles/:roleId')
  @ApiOperation({
    summary: 'Set a role on a delegation',
    description: 'Only when the decision has roleEnabled; by whoever may manage the delegation. isCascade sets the same role on every live delegation below it.',
  })
  @ApiOkResponse({ type: DelegationRoleView })
  @ApiBadRequestResponse({ description: 'A designee that does not fit designeeRecipientType, or a bad field (named)' })
  @ApiForbiddenResponse({ description: 'The caller may not manage the delegation' })
  @ApiNotFoundResponse({ description: "Unknown delegation, role or designee, or another tenant's" })
  @ApiConflictResponse({ description: 'Roles are not enabled on the decision' })
  @ResponseMessage('Delegation role updated successfully')
  update(@UuidParam('delegationId') id: string, @UuidParam('roleId') roleId: string, @Body() body: UpdateDelegationRoleDto, @CurrentCaller() caller: Caller): Promise<DelegationRoleView> {
    return this.roles.update(caller, id, roleId, body);
  }
}
