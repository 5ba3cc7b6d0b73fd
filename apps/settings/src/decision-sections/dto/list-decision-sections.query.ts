import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull, UuidListQuery, SelectQuery } from '@ddm/contracts';
import { MAX_LISTED_IDS, TenantListQuery } from '../../core/request.dto';
import { DECISION_SECTION_SORTS, DecisionSectionSort } from '../decision-section.rules';
import { DECISION_SECTION_FIELDS } from './decision-section.response';

/** GET /settings/v1/decision-sections: `search` is on the section name. */
export class ListDecisionSectionsQuery extends TenantListQuery {
  @ApiPropertyOptional({ description: 'Comma-separated section ids: only these sections' })
  @UuidListQuery(MAX_LISTED_IDS)
  sectionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated category ids: only the sections holding any of these categories (not deleted)' })
  @UuidListQuery(MAX_LISTED_IDS)
  categoryIds?: string[];

  @ApiPropertyOptional({ enum: DECISION_SECTION_SORTS, default: 'sectionName', description: 'sectionName sorts case-insensitively' })
  @OptionalNotNull()
  @IsIn(DECISION_SECTION_SORTS)
  sortBy: DecisionSectionSort = 'sectionName';

  @SelectQuery(DECISION_SECTION_FIELDS)
  select?: string[];
}
