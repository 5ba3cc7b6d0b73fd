import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ApiJsonValue, OptionalNotNull, PageQuery, SORT_ORDERS, SortOrder } from '@ddm/contracts';

export const CHANGELOG_SORTS = ['revisionId', 'revisionDate'] as const;
export type ChangelogSort = (typeof CHANGELOG_SORTS)[number];

/** GET /decision/v1/delegations/{id}/changelog: newest first unless asked otherwise. */
export class ChangelogQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CHANGELOG_SORTS, default: 'revisionId' })
  @OptionalNotNull()
  @IsIn(CHANGELOG_SORTS)
  sortBy: ChangelogSort = 'revisionId';

  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'desc' })
  @OptionalNotNull()
  @IsIn(SORT_ORDERS)
  override sortOrder: SortOrder = 'desc';
}

/** One changed field of a revision: its value before and after (JSON values as the delegation shows them). */
export class FieldChangeView {
  @ApiProperty({ example: 'status' }) field: string;
  @ApiJsonValue('The value before (null for the first revision)') from: unknown;
  @ApiJsonValue('The value after') to: unknown;
}

/** An entry of a delegation's change log: one revision. */
export class ChangelogEntryView {
  @ApiProperty({ format: 'uuid', description: 'The delegation history id (conditions-history and roles-history take it)' }) id: string;
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ example: '3', description: 'Increases by one per change of the delegation, from "1"' }) revisionId: string;
  @ApiProperty({ format: 'date-time' }) revisionDate: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null when the system made the change (expiry, invalidation by an organisation change)' }) revisedById: string | null;
  @ApiProperty({ type: String, nullable: true }) revisedByName: string | null;
  @ApiProperty({ example: 'updated', description: 'What happened: created, issued, updated, an action (accept, suspend, ...), invalidated, recipient reassigned, deleted, ...' }) change: string;
  @ApiProperty({ type: [FieldChangeView], description: 'The fields that changed, against the previous revision' }) changes: FieldChangeView[];
}
