import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull, UuidListQuery, SelectQuery } from '@ddm/contracts';
import { MAX_LISTED_IDS, TenantListQuery } from '../../core/request.dto';
import { DECISION_CATEGORY_SORTS, DecisionCategorySort } from '../decision-category.rules';
import { DECISION_CATEGORY_FIELDS } from './decision-category.response';

/** GET /settings/v1/decision-categories: `search` is on the category name. */
export class ListDecisionCategoriesQuery extends TenantListQuery {
  @ApiPropertyOptional({ description: 'Comma-separated section ids: only the categories in any of these sections' })
  @UuidListQuery(MAX_LISTED_IDS)
  sectionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated category ids: only these categories' })
  @UuidListQuery(MAX_LISTED_IDS)
  categoryIds?: string[];

  @ApiPropertyOptional({ enum: DECISION_CATEGORY_SORTS, default: 'categoryName', description: 'categoryName sorts case-insensitively' })
  @OptionalNotNull()
  @IsIn(DECISION_CATEGORY_SORTS)
  sortBy: DecisionCategorySort = 'categoryName';

  @SelectQuery(DECISION_CATEGORY_FIELDS)
  select?: string[];
}
