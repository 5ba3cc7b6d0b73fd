import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsoDateTime, OptionalNotNull, PageQuery } from '@ddm/contracts';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;

/** GET /matrix/v1/matrix/{id}/grid and /shared/{token}: a page of the grid's rows (PageQuery's page and limit, 50 rows by default), now or as of `at`. */
export class GridQuery extends PickType(PageQuery, ['page', 'limit']) {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50, description: 'Rows (decisions) per page' })
  override limit: number = 50;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'The grid as it stood at this instant' })
  @OptionalNotNull()
  @IsoDateTime()
  at?: string;
}

/** GET .../export: the whole grid as a file, now or as of `at`. */
export class ExportQuery {
  @ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'csv' })
  @OptionalNotNull()
  @IsIn(EXPORT_FORMATS)
  format: (typeof EXPORT_FORMATS)[number] = 'csv';

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'The grid as it stood at this instant' })
  @OptionalNotNull()
  @IsoDateTime()
  at?: string;
}
