import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DocumentVersioningService } from './document-versioning.service';
import { DocumentVersioningFieldView } from './dto/document-versioning.response';
import { ListDocumentVersioningQuery } from './dto/list-document-versioning.query';

@ApiTags('Document versioning')
@ApiAuth()
@Controller('v1/document-versioning')
export class DocumentVersioningController {
  constructor(private readonly fields: DocumentVersioningService) {}

  @Get()
  @ApiOperation({
    summary: 'Get document versioning fields',
    description: 'Paged; deleted fields are not listed. Every tenant has Version Number, Effective Date and Review Date. Membership of the tenant is all it needs.',
  })
  @ApiPageResponse(DocumentVersioningFieldView, 'Paged document versioning fields')
  @ResponseMessage('Document versioning fields list retrieved successfully')
  list(@Query() query: ListDocumentVersioningQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<DocumentVersioningFieldView>>> {
    return this.fields.list(caller.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get document versioning field' })
  @ApiOkResponse({ type: DocumentVersioningFieldView })
  @ApiNotFoundResponse({ description: "Unknown, deleted or another tenant's field" })
  @ResponseMessage('Document versioning field details retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<DocumentVersioningFieldView> {
    return this.fields.get(caller.tenantId, id);
  }
}
