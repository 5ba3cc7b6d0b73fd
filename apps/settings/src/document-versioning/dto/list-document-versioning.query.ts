import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull, SelectQuery, UuidListQuery } from '@ddm/contracts';
import { MAX_LISTED_IDS, TenantListQuery } from '../../core/request.dto';
import { VERSIONING_FIELD_SORTS, VersioningFieldSort } from '../document-versioning.rules';
import { DOCUMENT_VERSIONING_FIELDS } from './document-versioning.response';

/** GET /settings/v1/document-versioning, under the product's names: `search` is on the field's name. */
export class ListDocumentVersioningQuery extends TenantListQuery {
  @ApiPropertyOptional({ description: 'Comma-separated versioning field ids: only these' })
  @UuidListQuery(MAX_LISTED_IDS)
  versioningFieldIds?: string[];

  @ApiPropertyOptional({ enum: VERSIONING_FIELD_SORTS, default: 'createdAt', description: 'fieldName sorts case-insensitively; ties are broken by id' })
  @OptionalNotNull()
  @IsIn(VERSIONING_FIELD_SORTS)
  sortBy: VersioningFieldSort = 'createdAt';

  @SelectQuery(DOCUMENT_VERSIONING_FIELDS)
  select?: string[];
}
