import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { ActionsService } from './actions.service';
import { AssigneeStatusDto, AttestationResponseDto, BulkDuplicateActionsDto, BulkReassignDto, CreateActionDto, UpdateActionDto, ValidateActionDto } from './dto/action-change.dto';
import { ActionView, ValidateActionView } from './dto/action.response';
import { ListActionsQuery } from './dto/list-actions.query';

@ApiTags('Actions')
@ApiAuth()
@Controller('v1/actions')
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Get()
  @ApiOperation({ summary: 'List actions', description: 'Paged actions of the tenant, filtered and sorted; `select` keeps only the named fields of each item.' })
  @ApiPageResponse(ActionView, 'Paged actions (spec §2.2)')
  @ApiBadRequestResponse({ description: 'A bad parameter: limit outside 1..100, unknown field or sort, malformed id or date' })
  @ResponseMessage('Actions list retrieved successfully')
  list(@Query() query: ListActionsQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<ActionView>>> {
    return this.actions.list(caller, query, query.select);
  }

  @Get('global-search')
  @ApiOperation({ summary: 'Search actions', description: 'The same filters, sorts and paging as the list.' })
  @ApiPageResponse(ActionView, 'Paged actions (spec §2.2)')
  @ApiBadRequestResponse({ description: 'A bad parameter' })
  @ResponseMessage('Actions list retrieved successfully')
  search(@Query() query: ListActionsQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<ActionView>>> {
    return this.actions.list(caller, query, query.select);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('create:actions')
  @ApiOperation({
    summary: 'Create an action',
    description: 'Owner (default: the caller) and assignees must be members of the tenant; decisionId, delegationId and documentId must be records of the tenant. Status defaults to To Do, priority to Medium.',
  })
  @ApiOkResponse({ type: ActionView })
  @ApiBadRequestResponse({ description: 'A bad field: actionName missing or over 200, over 100 assignees, over 20 files, a file URL that is not http(s), an unknown field' })
  @ApiNotFoundResponse({ description: 'An owner or assignee who is not a member of the tenant, or a status, priority, type, template, decision, delegation or document the tenant does not have' })
  @ResponseMessage('Action created successfully')
  create(@Body() body: CreateActionDto, @CurrentCaller() caller: Caller): Promise<ActionView> {
    return this.actions.create(caller, body);
  }

  // Static paths before ':id'.
  @Patch('bulk-reassign')
  @ApiOperation({
    summary: 'Reassign actions in bulk',
    description:
      'Each action ends up assigned to exactly assigneeIds (those kept keep their status and dates). All or nothing: unknown, deleted or another tenant’s actions are a 404 naming them; actions the caller may not change (without edit:actions: neither owner nor assignee) a 403 naming them.',
  })
  @ApiOkResponse({ type: [ActionView] })
  @ApiBadRequestResponse({ description: 'actionIds not 1..500 UUIDs, assigneeIds not 1..100 UUIDs, an unknown field' })
  @ApiForbiddenResponse({ description: 'Actions the caller may not change (named)' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s actions, or people not of the tenant (named)' })
  @ResponseMessage('Actions reassigned successfully')
  bulkReassign(@Body() body: BulkReassignDto, @CurrentCaller() caller: Caller): Promise<ActionView[]> {
    return this.actions.bulkReassign(caller, body.actionIds, body.assigneeIds);
  }

  @Patch('validate-action')
  @ApiOperation({
    summary: 'Validate action',
    description:
      'Whether an open Delegation Request action that the caller opened already exists for the delegation (or decision): its name, and the holder it was sent to (userId). isExist false with nulls when none.',
  })
  @ApiOkResponse({ type: ValidateActionView })
  @ApiBadRequestResponse({ description: 'tenantId missing; neither delegationId nor decisionId; a malformed id' })
  @ApiNotFoundResponse({ description: 'Unknown or another tenant’s delegation or decision' })
  @ResponseMessage('Action validated successfully')
  validateAction(@Body() body: ValidateActionDto, @CurrentCaller() caller: Caller): Promise<ValidateActionView> {
    return this.actions.validateAction(caller, body);
  }

  @Post('bulk-duplicate')
  @HttpCode(200)
  @RequirePermission('create:actions')
  @ApiOperation({ summary: 'Duplicate actions in bulk', description: 'Synchronous: answers the copies (new ids and display ids, copiedFrom the source, To Do, manual).' })
  @ApiOkResponse({ type: [ActionView] })
  @ApiBadRequestResponse({ description: 'actionIds not 1..100 UUIDs' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s actions (named)' })
  @ResponseMessage('Actions duplicated successfully')
  bulkDuplicate(@Body() body: BulkDuplicateActionsDto, @CurrentCaller() caller: Caller): Promise<ActionView[]> {
    return this.actions.bulkDuplicate(caller, body.actionIds);
  }

  @Patch(':actionId/assignee/status')
  @ApiOperation({
    summary: "Set the caller's own status on an action",
    description: "status: one of the tenant's status names; sets actionTakenDate. When every assignee has completed, the action is Completed.",
  })
  @ApiOkResponse({ type: ActionView })
  @ApiBadRequestResponse({ description: 'Not one of the tenant’s status names' })
  @ApiForbiddenResponse({ description: 'The caller is not an assignee of the action' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s action' })
  @ResponseMessage('Assignee status updated successfully')
  assigneeStatus(@UuidParam('actionId') actionId: string, @Body() body: AssigneeStatusDto, @CurrentCaller() caller: Caller): Promise<ActionView> {
    return this.actions.setAssigneeStatus(caller, actionId, body.status);
  }

  @Post(':actionId/attestation-response')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Answer an Attestation action',
    description:
      'An assignee (a holder of the delegation) confirms or disputes the delegation of an Attestation action, with an optional comment: the action is Completed ' +
      'and the decision area records the answer on the campaign (evt.actions.attestation.responded); a dispute flags the delegation for its issuer. Once, before the due date.',
  })
  @ApiOkResponse({ type: ActionView })
  @ApiBadRequestResponse({ description: 'outcome not CONFIRMED or DISPUTED, comment over 2000, an unknown field' })
  @ApiForbiddenResponse({ description: 'The caller is not an assignee of the action' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s action' })
  @ApiConflictResponse({ description: 'Not an Attestation action, answered or canceled already, or past its due date' })
  @ResponseMessage('Attestation answered successfully')
  answerAttestation(@UuidParam('actionId') actionId: string, @Body() body: AttestationResponseDto, @CurrentCaller() caller: Caller): Promise<ActionView> {
    return this.actions.answerAttestation(caller, actionId, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an action' })
  @ApiOkResponse({ type: ActionView })
  @ApiNotFoundResponse({ description: 'Unknown, deleted, or another tenant’s action' })
  @ResponseMessage('Action retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<ActionView> {
    return this.actions.get(caller, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update an action',
    description: 'The create fields; assigneeIds and files replace what the action has. Owner and assignees may change their action; edit:actions changes any. A system action’s cause fields (decisionId, delegationId, documentId, ownerId) cannot change (409).',
  })
  @ApiOkResponse({ type: ActionView })
  @ApiBadRequestResponse({ description: 'Nothing to change, or a bad field' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted, or another tenant’s action; or a record it names' })
  @ApiConflictResponse({ description: 'A cause field of a system action' })
  @ResponseMessage('Action updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateActionDto, @CurrentCaller() caller: Caller): Promise<ActionView> {
    return this.actions.update(caller, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete an action', description: 'Soft: the action leaves every list and get. Answers it as it was, now deleted. Owner, assignees or edit:actions.' })
  @ApiOkResponse({ type: ActionView })
  @ApiNotFoundResponse({ description: 'Unknown, deleted, or another tenant’s action' })
  @ApiConflictResponse({ description: 'A system action (the system closes it)' })
  @ResponseMessage('Action deleted successfully')
  remove(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<ActionView> {
    return this.actions.remove(caller, id);
  }
}
