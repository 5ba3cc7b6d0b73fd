import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Nullable, OptionalNotNull, RECORD_STATUSES, RecordStatus } from '@ddm/contracts';
import { DeleteFlag, NonBlankText, TenantScopedBody } from '../../core/request.dto';
import { DOCUMENT_TYPE_ICON_MAX, DOCUMENT_TYPE_NAME_MAX } from '../document-type.rules';

const Icon = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: DOCUMENT_TYPE_ICON_MAX, example: 'file-text', description: 'null: no icon' }),
    Nullable(),
    NonBlankText(DOCUMENT_TYPE_ICON_MAX),
  );

const Status = () => applyDecorators(ApiPropertyOptional({ enum: RECORD_STATUSES, default: 'ACTIVE' }), OptionalNotNull(), IsIn(RECORD_STATUSES));

export class CreateDocumentTypeDto extends TenantScopedBody {
  @ApiProperty({ maxLength: DOCUMENT_TYPE_NAME_MAX, example: 'Guideline', description: "The type's name, unique in the tenant (case-insensitive)" })
  @NonBlankText(DOCUMENT_TYPE_NAME_MAX)
  documentTypeName: string;

  @Icon()
  documentTypeIcon?: string | null;

  @Status()
  status?: RecordStatus;
}

/** Rename, set or clear the icon, (de)activate, or delete softly (`isDeleted: true`; 409 for a default type). At least one field. */
export class UpdateDocumentTypeDto extends TenantScopedBody {
  @ApiPropertyOptional({ maxLength: DOCUMENT_TYPE_NAME_MAX, example: 'Guideline' })
  @OptionalNotNull()
  @NonBlankText(DOCUMENT_TYPE_NAME_MAX)
  documentTypeName?: string;

  @Icon()
  documentTypeIcon?: string | null;

  @Status()
  status?: RecordStatus;

  @DeleteFlag()
  isDeleted?: boolean;
}
