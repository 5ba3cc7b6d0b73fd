import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { EnumListQuery, OptionalNotNull, RECORD_STATUSES, RecordStatus, SelectQuery } from '@ddm/contracts';
import { TenantListQuery } from '../../core/request.dto';
import { AUTHORITY_TYPE_SORTS, AuthorityTypeSort } from '../authority-type.rules';
import { AUTHORITY_TYPE_FIELDS } from './authority-type.response';

/** GET /settings/v1/authority-types: `search` is on the type's name. */
export class ListAuthorityTypesQuery extends TenantListQuery {
  @ApiPropertyOptional({ description: 'Comma-separated: ACTIVE, INACTIVE', example: 'ACTIVE' })
  @EnumListQuery(RECORD_STATUSES)
  status?: RecordStatus[];

  @ApiPropertyOptional({ enum: AUTHORITY_TYPE_SORTS, default: 'authorityTypeOrder', description: 'authorityType sorts case-insensitively' })
  @OptionalNotNull()
  @IsIn(AUTHORITY_TYPE_SORTS)
  sortBy: AuthorityTypeSort = 'authorityTypeOrder';

  @SelectQuery(AUTHORITY_TYPE_FIELDS)
  select?: string[];
}
