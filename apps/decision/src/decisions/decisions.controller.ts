import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, JobAcceptedView, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DecisionsService } from './decisions.service';
import { BulkDecisionIdsDto, CreateDecisionDto, UnlinkRecordsDto, UpdateDecisionDto } from './dto/decision-change.dto';
import { BulkDeleteResult, BulkRestoreResult, DecisionView, UnlinkRecordsResult } from './dto/decision.response';
import { SearchDecisionsDto } from './dto/search-decisions.dto';

@ApiTags('Decisions')
@ApiAuth()
@Controller('v1/decisions')
export class DecisionsController {
  constructor(private readonly decisions: DecisionsService) {}

  @Get()
  @ApiOperation({ summary: 'List decisions', description: 'Paged decisions of the tenant, filtered and sorted; `select` keeps only the named fields of each item.' })
  @ApiPageResponse(DecisionView, 'Paged decisions (spec §2.9)')
  @ApiBadRequestResponse({ description: 'A bad parameter: limit outside 1..100, unknown value, field or sort, malformed id, date or limit filter' })
  @ResponseMessage('Decisions list retrieved successfully')
  list(@Query() query: SearchDecisionsDto, @CurrentCaller() caller: Caller): Promise<Page<Partial<DecisionView>>> {
    return this.decisions.list(caller, query, query.select);
  }

  @Post('global-search')
  @HttpCode(200)
  @ApiOperation({ summary: 'Search decisions', description: 'The filters of the list, in a body (lists as arrays).' })
  @ApiPageResponse(DecisionView, 'Paged decisions (spec §2.9)')
  @ResponseMessage('Decisions list retrieved successfully')
  search(@Body() body: SearchDecisionsDto, @CurrentCaller() caller: Caller): Promise<Page<Partial<DecisionView>>> {
    return this.decisions.list(caller, body, body.select);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('create:decisions')
  @ApiOperation({ summary: 'Create a decision', description: 'Names are unique in the tenant among decisions not deleted (case-insensitive).' })
  @ApiOkResponse({ type: DecisionView })
  @ApiBadRequestResponse({ description: 'A bad field (e.g. a name over 150 characters, an unknown value type, Currency without a unit)' })
  @ApiNotFoundResponse({ description: 'A section, category, group, authority type or owner the tenant does not have' })
  @ApiConflictResponse({ description: 'The tenant already has a decision of that name' })
  @ResponseMessage('Decision created successfully')
  create(@Body() body: CreateDecisionDto, @CurrentCaller() caller: Caller): Promise<DecisionView> {
    return this.decisions.create(caller, body);
  }

  // Static paths before ':id'.
  @Patch('bulk-delete')
  @RequirePermission('delete:decisions')
  @ApiOperation({ summary: 'Delete decisions in bulk', description: 'Soft; decisions deleted already change nothing and are not counted. All or nothing: an unknown or another tenant\'s id is a 404 naming it.' })
  @ApiOkResponse({ type: BulkDeleteResult })
  @ApiNotFoundResponse({ description: "An id that is not one of the tenant's decisions (unknown or another tenant's), named decisionIds.<i>; nothing changes" })
  @ResponseMessage('Decisions deleted successfully')
  bulkDelete(@Body() body: BulkDecisionIdsDto, @CurrentCaller() caller: Caller): Promise<BulkDeleteResult> {
    return this.decisions.bulkDelete(caller, body.decisionIds);
  }

  @Patch('bulk-restore')
  @RequirePermission('delete:decisions')
  @ApiOperation({ summary: 'Restore decisions in bulk', description: 'Brings back deleted decisions (not one whose name a live decision has taken meanwhile).' })
  @ApiOkResponse({ type: BulkRestoreResult })
  @ApiNotFoundResponse({ description: "An id that is not one of the tenant's decisions (unknown or another tenant's), named decisionIds.<i>; nothing changes" })
  @ResponseMessage('Decisions restored successfully')
  bulkRestore(@Body() body: BulkDecisionIdsDto, @CurrentCaller() caller: Caller): Promise<BulkRestoreResult> {
    return this.decisions.bulkRestore(caller, body.decisionIds);
  }

  @Patch('bulk-duplicate')
  @RequirePermission('create:decisions')
  @ApiOperation({
    summary: 'Duplicate decisions in bulk',
    description:
      'Asynchronous: answers the job (follow it at GET /decision/v1/jobs/{jobId}). Each copy: a new id and display id, copiedFrom the source, ' +
      'name "Copy of <name>" (with " (2)", ... when taken), status DRAFT, the source\'s groups, authorities, pathways, documents and settings; delegations are not copied.',
  })
  @ApiOkResponse({ type: JobAcceptedView })
  @ApiNotFoundResponse({ description: "A decision that is not one of the tenant's live ones (unknown, deleted or another tenant's), named decisionIds.<i>; no job is started" })
  @ResponseMessage('Decisions are being duplicated')
  bulkDuplicate(@Body() body: BulkDecisionIdsDto, @CurrentCaller() caller: Caller): Promise<JobAcceptedView> {
    return this.decisions.bulkDuplicate(caller, body.decisionIds);
  }

  @Post('unlink-records')
  @HttpCode(200)
  @RequirePermission('edit:decisions')
  @ApiOperation({ summary: 'Unlink a document from decisions' })
  @ApiOkResponse({ type: UnlinkRecordsResult })
  @ApiNotFoundResponse({ description: "A decision that is not one of the tenant's live ones, named decisionIds.<i>; nothing changes" })
  @ResponseMessage('Records unlinked successfully')
  unlinkRecords(@Body() body: UnlinkRecordsDto, @CurrentCaller() caller: Caller): Promise<UnlinkRecordsResult> {
    return this.decisions.unlinkRecords(caller, body.documentId, body.decisionIds);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a decision' })
  @ApiOkResponse({ type: DecisionView })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's decision" })
  @ResponseMessage('Decision retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<DecisionView> {
    return this.decisions.get(caller, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a decision',
    description: 'Needs edit:decisions, or being the owner. Lists replace what the decision has. Status moves: DRAFT to PUBLISHED, PUBLISHED to ARCHIVED, ARCHIVED to PUBLISHED.',
  })
  @ApiOkResponse({ type: DecisionView })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's decision; or a record it names" })
  @ApiConflictResponse({ description: 'A forbidden status move, or a name the tenant already has' })
  @ResponseMessage('Decision updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateDecisionDto, @CurrentCaller() caller: Caller): Promise<DecisionView> {
    return this.decisions.update(caller, id, body);
  }

  @Delete(':id')
  @RequirePermission('delete:decisions')
  @ApiOperation({ summary: 'Delete a decision', description: 'Soft: the decision leaves every list and get. Answers it as it was, now deleted.' })
  @ApiOkResponse({ type: DecisionView })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's decision" })
  @ApiConflictResponse({ description: 'The decision has live delegations: revoke them first' })
  @ResponseMessage('Decision deleted successfully')
  remove(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<DecisionView> {
    return this.decisions.remove(caller, id);
  }
}
