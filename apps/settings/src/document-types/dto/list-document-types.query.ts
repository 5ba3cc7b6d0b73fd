import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { EnumListQuery, OptionalNotNull, RECORD_STATUSES, RecordStatus, SelectQuery } from '@ddm/contracts';
import { TenantListQuery } from '../../core/request.dto';
import { DOCUMENT_TYPE_SORTS, DocumentTypeSort } from '../document-type.rules';
import { DOCUMENT_TYPE_FIELDS } from './document-type.response';

/** GET /settings/v1/document-types: `search` is on the type's name. */
export class ListDocumentTypesQuery extends TenantListQuery {
  @ApiPropertyOptional({ description: 'Comma-separated: ACTIVE, INACTIVE', example: 'ACTIVE' })
  @EnumListQuery(RECORD_STATUSES)
  status?: RecordStatus[];

  @ApiPropertyOptional({ enum: DOCUMENT_TYPE_SORTS, default: 'documentTypeName', description: 'documentTypeName sorts case-insensitively' })
  @OptionalNotNull()
  @IsIn(DOCUMENT_TYPE_SORTS)
  sortBy: DocumentTypeSort = 'documentTypeName';

  @SelectQuery(DOCUMENT_TYPE_FIELDS)
  select?: string[];
}
