import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { Nullable, OptionalNotNull } from '@ddm/contracts';
import { DeleteFlag, NonBlankText, TenantScopedBody } from '../../core/request.dto';
import { DECISION_CATEGORY_NAME_MAX } from '../decision-category.rules';

export class CreateDecisionCategoryDto extends TenantScopedBody {
  @ApiProperty({ maxLength: DECISION_CATEGORY_NAME_MAX, example: 'Procurement', description: 'Unique in the tenant (case-insensitive)' })
  @NonBlankText(DECISION_CATEGORY_NAME_MAX)
  categoryName: string;

  @ApiPropertyOptional({ format: 'uuid', type: String, nullable: true, description: 'A section of the tenant (404 otherwise); absent or null: in no section' })
  @Nullable()
  @IsUUID()
  sectionId?: string | null;
}

/** Rename, move to another section (or out of any with `sectionId: null`), or delete softly with `isDeleted: true`. At least one field. */
export class UpdateDecisionCategoryDto extends TenantScopedBody {
  @ApiPropertyOptional({ maxLength: DECISION_CATEGORY_NAME_MAX, example: 'Procurement' })
  @OptionalNotNull()
  @NonBlankText(DECISION_CATEGORY_NAME_MAX)
  categoryName?: string;

  @ApiPropertyOptional({ format: 'uuid', type: String, nullable: true, description: 'A section of the tenant (404 otherwise); null takes the category out of its section' })
  @Nullable()
  @IsUUID()
  sectionId?: string | null;

  @DeleteFlag()
  isDeleted?: boolean;
}
