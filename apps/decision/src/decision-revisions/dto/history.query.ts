import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull, PageQuery, SORT_ORDERS, SortOrder } from '@ddm/contracts';

/** GET /decision/v1/decisions/{id}/history: a page of revisions, newest first unless `sortOrder=asc`. */
export class HistoryQuery extends PageQuery {
  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'desc', description: 'By the date of each revision' })
  @OptionalNotNull()
  @IsIn(SORT_ORDERS)
  override sortOrder: SortOrder = 'desc';
}
