import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DocumentsService } from './documents.service';
import { ApprovalAnswerDto, CreateDocumentDto, ReviewAnswerDto, UpdateDocumentDto } from './dto/document-change.dto';
import { ChangelogEntryView, DocumentCountsView, DocumentView } from './dto/document.response';
import { ChangelogQuery, DocumentFilterQuery, ListDocumentsQuery } from './dto/list-documents.query';

const NOT_FOUND = "Unknown, deleted, another tenant's document, or a restricted one the caller is not in the audience of";

@ApiTags('Documents')
@ApiAuth()
@Controller('v1/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @ApiOperation({ summary: 'List documents', description: 'Paged documents of the tenant the caller sees, filtered and sorted; `select` keeps only the named fields of each item.' })
  @ApiPageResponse(DocumentView, 'Paged documents (spec §2.10)')
  @ApiBadRequestResponse({ description: 'A bad parameter: limit outside 1..100, unknown value, field or sort, malformed id or date' })
  @ResponseMessage('Documents list retrieved successfully')
  list(@Query() query: ListDocumentsQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<DocumentView>>> {
    return this.documents.list(caller, query);
  }

  // Static paths before ':id'.
  @Get('global-search')
  @ApiOperation({ summary: 'Search documents', description: 'The filters of the list (the product’s search screen): documents the caller sees, paged.' })
  @ApiPageResponse(DocumentView, 'Paged documents (spec §2.10)')
  @ApiBadRequestResponse({ description: 'A bad parameter' })
  @ResponseMessage('Documents list retrieved successfully')
  search(@Query() query: ListDocumentsQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<DocumentView>>> {
    return this.documents.list(caller, query);
  }

  @Get('counts')
  @ApiOperation({ summary: 'Count documents', description: 'With the filters of the list: active (PUBLISHED), inactive (DRAFT, ARCHIVED), the caller’s favourites, all.' })
  @ApiOkResponse({ type: DocumentCountsView })
  @ApiBadRequestResponse({ description: 'A bad parameter' })
  @ResponseMessage('Document counts retrieved successfully')
  counts(@Query() query: DocumentFilterQuery, @CurrentCaller() caller: Caller): Promise<DocumentCountsView> {
    return this.documents.counts(caller, query);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('create:documents')
  @ApiOperation({
    summary: 'Create a document',
    description: 'LINKED documents need documentUrl (http/https), UPLOADED ones fileId. Naming a reviewer requests the review at once; an approver without a reviewer, the approval.',
  })
  @ApiOkResponse({ type: DocumentView })
  @ApiBadRequestResponse({ description: 'A bad field (metadata that is not a JSON object, a javascript: URL, an unknown sharing type, an unknown field, ...)' })
  @ApiNotFoundResponse({ description: 'A document type, file, group, user or position the tenant does not have' })
  @ResponseMessage('Document created successfully')
  create(@Body() body: CreateDocumentDto, @CurrentCaller() caller: Caller): Promise<DocumentView> {
    return this.documents.create(caller, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a document' })
  @ApiOkResponse({ type: DocumentView })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ResponseMessage('Document retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<DocumentView> {
    return this.documents.get(caller, id);
  }

  @Get(':id/changelog')
  @ApiOperation({ summary: 'Get the change log of a document', description: 'One entry per change (create, update, publish, archive, delete, sharing, oversight), revisionId "1", "2", ...' })
  @ApiPageResponse(ChangelogEntryView, 'Paged change log entries (spec §2.11)')
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ResponseMessage('Document changelog retrieved successfully')
  changelog(@UuidParam('id') id: string, @Query() query: ChangelogQuery, @CurrentCaller() caller: Caller): Promise<Page<ChangelogEntryView>> {
    return this.documents.changelog(caller, id, query);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a document',
    description:
      'Needs edit:documents, or being the owner. Lists replace what the document has. Status moves: DRAFT -> PUBLISHED -> ARCHIVED; DELETED deletes it (softly). ' +
      'After CHANGES_REQUESTED the next change of the content requests a new review.',
  })
  @ApiOkResponse({ type: DocumentView })
  @ApiBadRequestResponse({ description: 'Nothing to change, or a bad field' })
  @ApiNotFoundResponse({ description: `${NOT_FOUND}; or a record it names` })
  @ApiConflictResponse({ description: 'A forbidden status move' })
  @ResponseMessage('Document updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateDocumentDto, @CurrentCaller() caller: Caller): Promise<DocumentView> {
    return this.documents.update(caller, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a document', description: 'Needs edit:documents, or being the owner. Soft: the document leaves every list and get. Answers it as it was, now deleted.' })
  @ApiOkResponse({ type: DocumentView })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ResponseMessage('Document deleted successfully')
  remove(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<DocumentView> {
    return this.documents.remove(caller, id);
  }

  @Post(':id/review')
  @HttpCode(200)
  @ApiOperation({ summary: 'Answer the review of a document', description: 'Only the named reviewer (or a holder of the reviewing position): APPROVED -> REVIEWED (then the approval is requested), CHANGES_REQUESTED.' })
  @ApiOkResponse({ type: DocumentView })
  @ApiForbiddenResponse({ description: 'The caller is not the reviewer' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: 'No review is pending' })
  @ResponseMessage('Document review recorded successfully')
  review(@UuidParam('id') id: string, @Body() body: ReviewAnswerDto, @CurrentCaller() caller: Caller): Promise<DocumentView> {
    return this.documents.answerReview(caller, id, body);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Answer the approval of a document', description: 'Only the named approver (or a holder of the approving position): APPROVED or REJECTED.' })
  @ApiOkResponse({ type: DocumentView })
  @ApiForbiddenResponse({ description: 'The caller is not the approver' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: 'No approval is pending' })
  @ResponseMessage('Document approval recorded successfully')
  approve(@UuidParam('id') id: string, @Body() body: ApprovalAnswerDto, @CurrentCaller() caller: Caller): Promise<DocumentView> {
    return this.documents.answerApproval(caller, id, body);
  }

  @Put(':id/favourite')
  @ApiOperation({ summary: 'Add a document to the caller’s favourites' })
  @ApiOkResponse({ type: DocumentView })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ResponseMessage('Document added to favourites')
  favour(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<DocumentView> {
    return this.documents.setFavourite(caller, id, true);
  }

  @Delete(':id/favourite')
  @ApiOperation({ summary: 'Remove a document from the caller’s favourites' })
  @ApiOkResponse({ type: DocumentView })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ResponseMessage('Document removed from favourites')
  unfavour(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<DocumentView> {
    return this.documents.setFavourite(caller, id, false);
  }
}
