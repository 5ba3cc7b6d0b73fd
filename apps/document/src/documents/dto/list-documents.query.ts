import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { EnumListQuery, IsoDateTime, OptionalNotNull, PageQuery, ToBoolean, UuidListQuery } from '@ddm/contracts';
import { CHANGELOG_SORTS, ChangelogSort, DOCUMENT_SORTS, DocumentSort, LISTED_STATUSES, OVERSIGHT_STATUSES, SHARING_TYPES, UPLOAD_TYPES } from '../document.rules';
import { DOCUMENT_FIELDS } from './document.response';

/** The filters of the documents list, the global search and the counts (the product's names for this area). */
export class DocumentFilterQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Contained in the name, the description or the display id (case-insensitive)', example: 'authority' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ description: `Comma-separated: ${LISTED_STATUSES.join(', ')}`, example: 'PUBLISHED' })
  @EnumListQuery(LISTED_STATUSES)
  status?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated document type ids' })
  @UuidListQuery(100)
  documentType?: string[];

  @ApiPropertyOptional({ description: `Comma-separated oversight statuses: ${OVERSIGHT_STATUSES.join(', ')}`, example: 'REVIEW_PENDING' })
  @EnumListQuery(OVERSIGHT_STATUSES)
  oversight?: string[];

  @ApiPropertyOptional({ enum: SHARING_TYPES })
  @OptionalNotNull()
  @IsIn(SHARING_TYPES)
  documentSharingType?: string;

  @ApiPropertyOptional({ description: 'Comma-separated owner user ids' })
  @UuidListQuery(100)
  documentOwnerId?: string[];

  @ApiPropertyOptional({ description: "Only the caller's favourites (true) or the others (false)" })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isFavourite?: boolean;

  @ApiPropertyOptional({ format: 'uuid' })
  @OptionalNotNull()
  @IsUUID()
  responsibleUserId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @OptionalNotNull()
  @IsUUID()
  reviewerUserId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @OptionalNotNull()
  @IsUUID()
  approverUserId?: string;

  @ApiPropertyOptional({ enum: UPLOAD_TYPES })
  @OptionalNotNull()
  @IsIn(UPLOAD_TYPES)
  documentUploadType?: string;

  @ApiPropertyOptional({ description: 'Uploaded (created) at or after (ISO 8601 date-time)', example: '2026-01-01T00:00:00.000Z' })
  @OptionalNotNull()
  @IsoDateTime()
  createdStartDate?: string;

  @ApiPropertyOptional({ description: 'Uploaded (created) at or before (ISO 8601 date-time; inclusive to the millisecond)' })
  @OptionalNotNull()
  @IsoDateTime()
  createdEndDate?: string;

  @ApiPropertyOptional({ description: 'Last updated at or after (ISO 8601 date-time)' })
  @OptionalNotNull()
  @IsoDateTime()
  updatedStartDate?: string;

  @ApiPropertyOptional({ description: 'Last updated at or before (ISO 8601 date-time; inclusive to the millisecond)' })
  @OptionalNotNull()
  @IsoDateTime()
  updatedEndDate?: string;
}

/** GET /document/v1/documents and /global-search: the filters, the fields to answer and the sort. */
export class ListDocumentsQuery extends DocumentFilterQuery {
  @ApiPropertyOptional({ description: `Comma-separated fields to return per item. One of: ${DOCUMENT_FIELDS.join(', ')}`, example: 'id,documentName,documentStatus' })
  @EnumListQuery(DOCUMENT_FIELDS)
  select?: string[];

  @ApiPropertyOptional({ enum: DOCUMENT_SORTS, default: 'documentName', description: 'documentDisplayId sorts numerically; ties are broken by id' })
  @OptionalNotNull()
  @IsIn(DOCUMENT_SORTS)
  sortBy: DocumentSort = 'documentName';
}

/** GET /document/v1/documents/{id}/changelog */
export class ChangelogQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CHANGELOG_SORTS, default: 'revisionId' })
  @OptionalNotNull()
  @IsIn(CHANGELOG_SORTS)
  sortBy: ChangelogSort = 'revisionId';
}
