import { ApiProperty } from '@nestjs/swagger';
import { TenantScopedBody, NonBlankText } from '../../core/request.dto';
import { DECISION_SECTION_NAME_MAX } from '../decision-section.rules';

export class CreateDecisionSectionDto extends TenantScopedBody {
  @ApiProperty({ maxLength: DECISION_SECTION_NAME_MAX, example: 'Finance', description: 'Unique in the tenant (case-insensitive)' })
  @NonBlankText(DECISION_SECTION_NAME_MAX)
  sectionName: string;
}
