import { Body, Controller, Get, HttpCode, Param, ParseEnumPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, JobAcceptedView, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { ApiConsistentRead, CommittedChange, ConsistencyHeader } from '@ddm/platform';
import { DELEGATION_ACTIONS, DelegationAction } from '../core/delegation.types';
import { DelegationsService } from './delegations.service';
import { CascadingCheckView, CheckCascadingUpdatesDto } from './dto/cascading.dto';
import { BulkDeleteDelegationsDto, BulkLinkDocumentsDto, BulkReassignRecipientsDto, CreateDelegationDto, DelegationMoveDto, DelegationRequestActionDto, UpdateDelegationDto } from './dto/delegation-change.dto';
import { BulkDeleteDelegationsResult, DelegationReadView, DelegationRequestView } from './dto/delegation.response';
import { DelegationView } from '../core/delegation.view';
import { DelegationAtQuery, SearchDelegationsDto } from './dto/search-delegations.dto';

@ApiTags('Delegations')
@ApiAuth()
@Controller('v1/delegations')
export class DelegationsController {
  constructor(private readonly delegations: DelegationsService) {}

  @Get()
  @ApiOperation({ summary: 'List delegations', description: 'Paged delegations of the tenant (all but DELETED unless `status` says), filtered and sorted.' })
  @ApiPageResponse(DelegationView, 'Paged delegations')
  @ApiConsistentRead()
  @ResponseMessage('Delegations list retrieved successfully')
  list(@Query() query: SearchDelegationsDto, @ConsistencyHeader() fresh: CommittedChange[], @CurrentCaller() caller: Caller): Promise<Page<DelegationView>> {
    return this.delegations.list(caller, query, fresh);
  }

  @Post('global-search')
  @HttpCode(200)
  @ApiOperation({ summary: 'Search delegations', description: 'The filters of the list, in a body (lists as arrays).' })
  @ApiPageResponse(DelegationView, 'Paged delegations')
  @ApiConsistentRead()
  @ResponseMessage('Delegations list retrieved successfully')
  search(@Body() body: SearchDelegationsDto, @ConsistencyHeader() fresh: CommittedChange[], @CurrentCaller() caller: Caller): Promise<Page<DelegationView>> {
    return this.delegations.list(caller, body, fresh);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue delegations',
    description:
      "A root delegation (no parentDelegationId: needs create:root_delegations and a PUBLISHED, delegable decision; limits within the decision's) or a " +
      "redelegation (the caller holds the parent; each limit within what the parent hands on; pathways, groups and expiration within the parent's; " +
      'each recipient reachable along a pathway). One delegation per recipient, all or none; status DRAFT or ISSUED. ' +
      'Issued (holding at once) so that someone would hold both sides of a segregation-of-duties rule: a 409 naming the rules, unless acknowledgeSodConflict (approve:delegations). ' +
      "The product's issuerType, issuerUserId, issuerPositionId and isRootDelegation may be sent: they must say what is so (the caller; ROOT_AUTHORITY without a parent; " +
      'on a redelegation how the caller holds the parent now), else a 400 naming the field (403 for another issuerUserId); left out they are derived.',
  })
  @ApiOkResponse({ type: [DelegationView] })
  @ApiBadRequestResponse({ description: 'A bad field or a broken rule (the message and errors name the rule and the field)' })
  @ApiForbiddenResponse({ description: 'The caller may not issue it (no create:root_delegations, does not hold the parent), issuerUserId is someone else, or acknowledgeSodConflict sent for a conflict without approve:delegations' })
  @ApiNotFoundResponse({ description: 'A decision, parent, user, position, group, group type, authority type or copiedFrom the tenant does not have (named by its field)' })
  @ApiConflictResponse({ description: 'It would create a segregation-of-duties conflict (the rules named in errors as sodRules.<ruleId>); send acknowledgeSodConflict: true' })
  @ResponseMessage('Delegations created successfully')
  create(@Body() body: CreateDelegationDto, @CurrentCaller() caller: Caller): Promise<DelegationView[]> {
    return this.delegations.create(caller, body);
  }

  // Static paths before ':id'.
  @Patch('bulk-link-documents')
  @RequirePermission('create:delegations')
  @ApiOperation({
    summary: 'Link documents to delegations in bulk',
    description:
      "Asynchronous: answers the job (follow it at GET /decision/v1/jobs/{jobId}). A pair already linked changes nothing. A delegation that is not one of the tenant's (unknown, deleted, another tenant's) is a 404 naming it (delegationIds.<i>) and no job is started; one deleted meanwhile is a per-item error of the job.",
  })
  @ApiOkResponse({ type: JobAcceptedView })
  @ApiNotFoundResponse({ description: "A delegation that is not one of the tenant's, named delegationIds.<i>" })
  @ApiBadRequestResponse({ description: 'delegationIds outside 1..1000, documentIds outside 1..100, or a malformed id' })
  @ResponseMessage('Documents are being linked')
  bulkLinkDocuments(@Body() body: BulkLinkDocumentsDto, @CurrentCaller() caller: Caller): Promise<JobAcceptedView> {
    return this.delegations.bulkLinkDocuments(caller, body.delegationIds, body.documentIds);
  }

  @Patch('bulk-delete')
  @ApiOperation({
    summary: 'Delete delegations in bulk',
    description:
      'All or nothing: each named delegation (and with cascadeToChildDelegations its whole subtree, in one recursive statement) becomes DELETED, with a revision and its event each; without it, ended descendants stay as they are. ' +
      'Without cascadeToChildDelegations a delegation with live descendants is a 409.',
  })
  @ApiOkResponse({ type: BulkDeleteDelegationsResult })
  @ApiBadRequestResponse({ description: 'delegationIds outside 1..1000, or a malformed id' })
  @ApiForbiddenResponse({ description: 'The caller may not manage one of them (named)' })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's delegations (named delegationIds.<i>); nothing changes" })
  @ApiConflictResponse({ description: 'Descendants would be orphaned: send cascadeToChildDelegations' })
  @ResponseMessage('Delegations deleted successfully')
  bulkDelete(@Body() body: BulkDeleteDelegationsDto, @CurrentCaller() caller: Caller): Promise<BulkDeleteDelegationsResult> {
    return this.delegations.bulkDelete(caller, body.delegationIds, body.cascadeToChildDelegations ?? false);
  }

  @Patch('bulk-reassign-recipients')
  @ApiOperation({
    summary: 'Reassign delegations to a new recipient in bulk',
    description:
      'Asynchronous: answers the job (follow it at GET /decision/v1/jobs/{jobId}). Each delegation is checked by the rules as a new recipient is (sound, reachable from its issuer along its pathways) ' +
      'and must be one the caller may manage; a refused one is a per-item error and the job ends COMPLETED_WITH_ERRORS. An accepted delegation awaits the new recipient.',
  })
  @ApiOkResponse({ type: JobAcceptedView })
  @ApiBadRequestResponse({ description: 'delegationIds outside 1..1000, a recipient that does not fit recipientType, or a malformed id' })
  @ApiNotFoundResponse({ description: "A delegation that is not one of the tenant's (named delegationIds.<i>), or a new recipient that is not a member or position of the tenant; no job is started" })
  @ResponseMessage('Delegations are being reassigned')
  bulkReassign(@Body() body: BulkReassignRecipientsDto, @CurrentCaller() caller: Caller): Promise<JobAcceptedView> {
    return this.delegations.bulkReassign(caller, body);
  }

  @Post('delegation-request-action')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Ask the holder of a delegation for a redelegation',
    description: 'Answers who is asked (the holder today); the actions area opens the "Delegation Request" action, owned by the caller and assigned to the holder.',
  })
  @ApiCreatedResponse({ type: DelegationRequestView })
  @ApiBadRequestResponse({ description: 'decisionId is not the delegation\'s decision, or a malformed id' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's delegation" })
  @ApiConflictResponse({ description: 'The delegation is not ISSUED or ACCEPTED, or nobody holds it today' })
  @ResponseMessage('Delegation request sent successfully')
  requestAction(@Body() body: DelegationRequestActionDto, @CurrentCaller() caller: Caller): Promise<DelegationRequestView> {
    return this.delegations.requestAction(caller, body);
  }

  @Patch('check-cascading-updates')
  @ApiOperation({
    summary: 'Check cascading updates',
    description:
      'A dry run that changes nothing: every live descendant of parentDelegationId (or every live delegation of decisionId when only decision fields are given) ' +
      'that the proposed pathways, groups and authorities would make invalid, with the fields it would newly break (depth 1: direct children). ' +
      'Items flagged isInvalid are left out of the proposal.',
  })
  @ApiOkResponse({ type: CascadingCheckView })
  @ApiBadRequestResponse({ description: 'Neither parentDelegationId nor decisionId, or a bad field' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's delegation, decision, group or authority type (each named by its field)" })
  @ResponseMessage('Cascading updates checked successfully')
  checkCascading(@Body() body: CheckCascadingUpdatesDto, @CurrentCaller() caller: Caller): Promise<CascadingCheckView> {
    return this.delegations.checkCascading(caller, body);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get a delegation',
    description: 'With isInvalid and invalidFields, and whether the caller must approve or accept it. With `at`: the delegation as it stood at that instant (its revision then).',
  })
  @ApiOkResponse({ type: DelegationReadView })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's; with `at`, not yet created then" })
  @ApiConsistentRead()
  @ResponseMessage('Delegation retrieved successfully')
  get(@UuidParam('id') id: string, @Query() query: DelegationAtQuery, @ConsistencyHeader() fresh: CommittedChange[], @CurrentCaller() caller: Caller): Promise<DelegationReadView> {
    return this.delegations.read(caller, id, query.at, fresh);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a delegation',
    description:
      "The terms of a live delegation (recipient, dates, pathways, groups, authorities, documents; what is left out stays), checked by the rules against its parent or decision. " +
      'A change that would make its descendants invalid is a 409 listing them, unless cascade is true: then it is made and they are marked invalid.',
  })
  @ApiOkResponse({ type: DelegationView })
  @ApiBadRequestResponse({ description: 'A bad field or a broken rule (named)' })
  @ApiForbiddenResponse({ description: 'The caller may not manage it' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's (or a new recipient the tenant does not have)" })
  @ApiConflictResponse({ description: 'It is not live, or the change would make descendants invalid without cascade' })
  @ResponseMessage('Delegation updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateDelegationDto, @CurrentCaller() caller: Caller): Promise<DelegationView> {
    return this.delegations.update(caller, id, body);
  }

  @Post(':id/:action')
  @HttpCode(200)
  @ApiParam({ name: 'action', enum: DELEGATION_ACTIONS })
  @ApiBody({ type: DelegationMoveDto, required: false })
  @ApiOperation({
    summary: 'Move a delegation',
    description:
      'issue, suspend, resume, revoke (with its whole subtree) and archive: the issuer, anyone above the issuer in the chain, or a holder of approve:delegations ' +
      '(for a root delegation also create:root_delegations); approve and deny: approve:delegations; accept and reject: the recipient.',
  })
  @ApiOkResponse({ type: DelegationView })
  @ApiForbiddenResponse({ description: 'The caller may not make this move, or sent acknowledgeSodConflict for a conflict without approve:delegations' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's" })
  @ApiConflictResponse({ description: 'The move is not allowed from the current status (the message names both); or the delegation would begin to hold and create a segregation-of-duties conflict (the rules named), without acknowledgeSodConflict' })
  @ResponseMessage('Delegation updated successfully')
  move(
    @UuidParam('id') id: string,
    @Param('action', new ParseEnumPipe(Object.fromEntries(DELEGATION_ACTIONS.map((a) => [a, a])))) action: DelegationAction,
    @Body() body: DelegationMoveDto,
    @CurrentCaller() caller: Caller,
  ): Promise<DelegationView> {
    return this.delegations.move(caller, id, action, body.acknowledgeSodConflict ?? false);
  }
}
