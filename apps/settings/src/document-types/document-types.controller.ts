import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DocumentTypesService } from './document-types.service';
import { CreateDocumentTypeDto, UpdateDocumentTypeDto } from './dto/document-type-change.dto';
import { DocumentTypeView } from './dto/document-type.response';
import { ListDocumentTypesQuery } from './dto/list-document-types.query';

@ApiTags('Document types')
@ApiAuth()
@Controller('v1/document-types')
export class DocumentTypesController {
  constructor(private readonly documentTypes: DocumentTypesService) {}

  @Get()
  @ApiOperation({
    summary: 'List document types',
    description: 'Paged; deleted types are not listed. Sorted by name unless sortBy says otherwise. Every tenant has Policy, Procedure, Charter, Resolution and Contract.',
  })
  @ApiPageResponse(DocumentTypeView, 'Paged document types')
  @ResponseMessage('Document types list retrieved successfully')
  list(@Query() query: ListDocumentTypesQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<DocumentTypeView>>> {
    return this.documentTypes.list(caller.tenantId, query);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Create a document type', description: 'Refused (409) when a type of the tenant already has the name, in any case.' })
  @ApiOkResponse({ type: DocumentTypeView })
  @ApiBadRequestResponse({ description: 'documentTypeName missing, blank or longer than 150; icon longer than 150; unknown status or field' })
  @ApiConflictResponse({ description: 'The name is taken in the tenant' })
  @ResponseMessage('Document type created successfully')
  create(@Body() body: CreateDocumentTypeDto, @CurrentCaller() caller: Caller): Promise<DocumentTypeView> {
    return this.documentTypes.create(caller.tenantId, body, caller.userId);
  }

  @Patch(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: 'Update a document type',
    description: 'Rename (409 onto a taken name), set or clear the icon, (de)activate, or delete softly with isDeleted: true (409 for a default type). A deleted type is a 404 afterwards.',
  })
  @ApiOkResponse({ type: DocumentTypeView })
  @ApiBadRequestResponse({ description: 'Nothing to change, a field out of bounds, unknown status or field, malformed id' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s document type' })
  @ApiConflictResponse({ description: 'The new name is taken in the tenant, or deleting a default type' })
  @ResponseMessage('Document type updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateDocumentTypeDto, @CurrentCaller() caller: Caller): Promise<DocumentTypeView> {
    return this.documentTypes.update(caller.tenantId, id, body, caller.userId);
  }
}
