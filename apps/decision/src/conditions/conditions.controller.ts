import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, ResponseMessage, UuidParam } from '@ddm/contracts';
import { ConditionsService } from './conditions.service';
import { ConditionMappingView, ConditionsQuery, CreateConditionDto, UpdateConditionDto } from './dto/condition.dto';

@ApiTags('Delegation conditions')
@ApiAuth()
@Controller('v1/delegations')
export class ConditionsController {
  constructor(private readonly conditions: ConditionsService) {}

  @Get(':delegationHistoryId/conditions-history')
  @ApiOperation({
    summary: 'List delegation condition history',
    description: "Given a delegation history id (an entry of the delegation's change log): its conditions as they stood then. Given a delegation's id: every change of its conditions.",
  })
  @ApiPageResponse(ConditionMappingView, 'Paged delegation condition mappings (spec §2.1)')
  @ApiBadRequestResponse({ description: 'A bad parameter (limit outside 1..100, unknown sortBy, isActive not a boolean)' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's" })
  @ResponseMessage('Delegation condition history retrieved successfully')
  history(@UuidParam('delegationHistoryId') id: string, @Query() query: ConditionsQuery, @CurrentCaller() caller: Caller): Promise<Page<ConditionMappingView>> {
    return this.conditions.history(caller, id, query);
  }

  @Get(':delegationId/conditions')
  @ApiOperation({ summary: "List a delegation's conditions" })
  @ApiPageResponse(ConditionMappingView, 'Paged delegation condition mappings (spec §2.1)')
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's" })
  @ResponseMessage('Delegation conditions retrieved successfully')
  list(@UuidParam('delegationId') id: string, @Query() query: ConditionsQuery, @CurrentCaller() caller: Caller): Promise<Page<ConditionMappingView>> {
    return this.conditions.list(caller, id, query);
  }

  @Post(':delegationId/conditions')
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a condition to a delegation', description: "Only when the decision has conditionEnabled; by whoever may manage the delegation." })
  @ApiCreatedResponse({ type: ConditionMappingView })
  @ApiForbiddenResponse({ description: 'The caller may not manage the delegation' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's" })
  @ApiConflictResponse({ description: "The decision's conditions are not enabled" })
  @ResponseMessage('Delegation condition created successfully')
  create(@UuidParam('delegationId') id: string, @Body() body: CreateConditionDto, @CurrentCaller() caller: Caller): Promise<ConditionMappingView> {
    return this.conditions.create(caller, id, body);
  }

  @Patch(':delegationId/conditions/:conditionId')
  @ApiOperation({ summary: 'Update delegation condition', description: 'conditionName (max 150), conditionDescription, isActive (a boolean or "true"/"false"); each change is a history entry.' })
  @ApiOkResponse({ type: ConditionMappingView })
  @ApiBadRequestResponse({ description: 'A bad field, or nothing to change' })
  @ApiForbiddenResponse({ description: 'The caller may not manage the delegation' })
  @ApiNotFoundResponse({ description: 'Unknown delegation or condition' })
  @ApiConflictResponse({ description: "The decision's conditions are not enabled" })
  @ResponseMessage('Delegation condition updated successfully')
  update(
    @UuidParam('delegationId') id: string,
    @UuidParam('conditionId') conditionId: string,
    @Body() body: UpdateConditionDto,
    @CurrentCaller() caller: Caller,
  ): Promise<ConditionMappingView> {
    return this.conditions.update(caller, id, conditionId, body);
  }
}
