import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { Nullable, OptionalNotNull, RECORD_STATUSES, RecordStatus } from '@ddm/contracts';
import { DeleteFlag, NonBlankText, TenantScopedBody } from '../../core/request.dto';
import { AUTHORITY_TYPE_ICON_MAX, AUTHORITY_TYPE_NAME_MAX, AUTHORITY_TYPE_ORDER_MAX } from '../authority-type.rules';

const Icon = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: AUTHORITY_TYPE_ICON_MAX, example: 'check-circle', description: 'null: no icon' }),
    Nullable(),
    NonBlankText(AUTHORITY_TYPE_ICON_MAX),
  );

const Order = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: AUTHORITY_TYPE_ORDER_MAX, example: 3, description }),
    OptionalNotNull(),
    IsInt(),
    Min(0),
    Max(AUTHORITY_TYPE_ORDER_MAX),
  );

const Status = () => applyDecorators(ApiPropertyOptional({ enum: RECORD_STATUSES, default: 'ACTIVE' }), OptionalNotNull(), IsIn(RECORD_STATUSES));

export class CreateAuthorityTypeDto extends TenantScopedBody {
  @ApiProperty({ maxLength: AUTHORITY_TYPE_NAME_MAX, example: 'Endorsement', description: "The type's name, unique in the tenant (case-insensitive)" })
  @NonBlankText(AUTHORITY_TYPE_NAME_MAX)
  authorityType: string;

  @Icon()
  authorityTypeIcon?: string | null;

  @Order("Default: after the tenant's last type")
  authorityTypeOrder?: number;

  @Status()
  status?: RecordStatus;
}

/** Rename, set or clear the icon, reorder, (de)activate, or delete softly (`isDeleted: true`; 409 for a default type). At least one field. */
export class UpdateAuthorityTypeDto extends TenantScopedBody {
  @ApiPropertyOptional({ maxLength: AUTHORITY_TYPE_NAME_MAX, example: 'Endorsement' })
  @OptionalNotNull()
  @NonBlankText(AUTHORITY_TYPE_NAME_MAX)
  authorityType?: string;

  @Icon()
  authorityTypeIcon?: string | null;

  @Order('The new place among the tenant’s types')
  authorityTypeOrder?: number;

  @Status()
  status?: RecordStatus;

  @DeleteFlag()
  isDeleted?: boolean;
}
