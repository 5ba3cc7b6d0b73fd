import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull, SelectQuery } from '@ddm/contracts';
import { TenantListQuery } from '../../core/request.dto';
import { ACTION_TEMPLATE_SORTS, ActionTemplateSort } from '../action-template.rules';
import { ACTION_TEMPLATE_FIELDS } from './action-template.response';

export class ListActionTemplatesQuery extends TenantListQuery {
  @ApiPropertyOptional({ enum: ACTION_TEMPLATE_SORTS, default: 'name' })
  @OptionalNotNull()
  @IsIn(ACTION_TEMPLATE_SORTS)
  sortBy: ActionTemplateSort = 'name';

  @SelectQuery(ACTION_TEMPLATE_FIELDS)
  select?: string[];
}
