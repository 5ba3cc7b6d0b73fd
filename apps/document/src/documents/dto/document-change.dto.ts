import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { Nullable, OptionalNotNull, ToBoolean, Trim } from '@ddm/contracts';
import {
  CHANGE_STATUSES,
  CREATE_STATUSES,
  DOCUMENT_DESCRIPTION_MAX,
  DOCUMENT_METADATA_MAX_BYTES,
  DOCUMENT_NAME_MAX,
  DOCUMENT_URL_MAX,
  ICON_MAX,
  MAX_SHARING_GROUPS,
  MAX_SHARING_USERS,
  NAME_MAX,
  SHARING_TYPES,
  UPLOAD_TYPES,
  isJsonObjectText,
  isLinkableUrl,
} from '../document.rules';

/** A string holding a JSON object, at most 64 KiB. */
const JsonObjectText = () =>
  applyDecorators(
    IsString(),
    ValidateBy({
      name: 'isJsonObjectText',
      validator: {
        validate: (v: unknown) => typeof v === 'string' && Buffer.byteLength(v, 'utf8') <= DOCUMENT_METADATA_MAX_BYTES && isJsonObjectText(v),
        defaultMessage: () => `$property must be a string holding a JSON object, at most ${DOCUMENT_METADATA_MAX_BYTES} bytes`,
      },
    }),
  );

/** An http or https URL (no javascript:, data:, ...). */
const LinkUrl = () =>
  applyDecorators(
    IsString(),
    MaxLength(DOCUMENT_URL_MAX),
    ValidateBy({ name: 'isLinkableUrl', validator: { validate: (v: unknown) => typeof v === 'string' && isLinkableUrl(v), defaultMessage: () => '$property must be an http or https URL' } }),
  );

const Text = (max: number, description: string, example?: string) =>
  applyDecorators(ApiPropertyOptional({ type: String, nullable: true, maxLength: max, description, example }), Nullable(), Trim(), IsString(), MaxLength(max));

const PersonId = (description: string) => applyDecorators(ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description }), Nullable(), IsUUID());

export class DocumentSharingGroupDto {
  @ApiProperty({ format: 'uuid', description: 'A group of the tenant (settings area): its members, and those of its descendant groups, see the document' })
  @IsUUID()
  groupId: string;

  @ApiPropertyOptional({ format: 'uuid', description: "The group's type (taken from the settings area's group when known)" })
  @OptionalNotNull()
  @IsUUID()
  tenantGroupTypeId?: string;
}

export class DocumentSharingUserDto {
  @ApiProperty({ format: 'uuid', description: 'A member of the tenant' })
  @IsUUID()
  userId: string;
}

/** The people of a document's oversight: for each role a user, a position, or both; names come from the projections when ids are given. */
export class DocumentOversightDto {
  @PersonId('The responsible user') responsibleUserId?: string | null;
  @Text(NAME_MAX, 'Used only when no responsibleUserId is given') responsibleUsername?: string | null;
  @PersonId('The responsible position') responsiblePositionId?: string | null;
  @Text(NAME_MAX, 'Used only when no responsiblePositionId is given') responsiblePositionName?: string | null;
  @PersonId('The reviewer (must hold review:documents): naming one requests the review') reviewerUserId?: string | null;
  @Text(NAME_MAX, 'Used only when no reviewerUserId is given') reviewerUsername?: string | null;
  @PersonId('The reviewing position: its holders may review') reviewerPositionId?: string | null;
  @Text(NAME_MAX, 'Used only when no reviewerPositionId is given') reviewerPositionName?: string | null;
  @PersonId('The approver (must hold approve:documents)') approverUserId?: string | null;
  @Text(NAME_MAX, 'Used only when no approverUserId is given') approverUsername?: string | null;
  @PersonId('The approving position: its holders may approve') approverPositionId?: string | null;
  @Text(NAME_MAX, 'Used only when no approverPositionId is given') approverPositionName?: string | null;
}

export class DocumentLinkingDto {
  @ApiPropertyOptional({ description: 'Decisions may link the document' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  decisionLinkAllowed?: boolean;

  @ApiPropertyOptional({ description: 'Delegations may link the document' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  delegationLinkAllowed?: boolean;
}

const SharingGroups = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [DocumentSharingGroupDto], maxItems: MAX_SHARING_GROUPS, description: 'Groups the document is shared with (replaces the set on PATCH)' }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_SHARING_GROUPS),
    ValidateNested({ each: true }),
    Type(() => DocumentSharingGroupDto),
  );

const SharingUsers = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [DocumentSharingUserDto], maxItems: MAX_SHARING_USERS, description: 'Users the document is shared with (replaces the set on PATCH)' }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_SHARING_USERS),
    ValidateNested({ each: true }),
    Type(() => DocumentSharingUserDto),
  );

/** The fields a create and an update share. */
class DocumentFieldsDto extends DocumentOversightDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant of the document (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DOCUMENT_DESCRIPTION_MAX })
  @Nullable()
  @IsString()
  @MaxLength(DOCUMENT_DESCRIPTION_MAX)
  documentDescription?: string | null;

  @Text(ICON_MAX, 'An icon name', 'file-text') documentIcon?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: 'The owner, a member of the tenant (default: the caller)' })
  @OptionalNotNull()
  @IsUUID()
  documentOwnerId?: string;

  @Text(NAME_MAX, "Ignored: the owner's name comes from the auth area") documentOwnerUsername?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DOCUMENT_METADATA_MAX_BYTES, description: 'A string holding a JSON object (at most 64 KiB)', example: '{"owner":"Finance"}' })
  @Nullable()
  @JsonObjectText()
  documentMetadata?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'An uploaded file (POST /document/v1/files) for UPLOADED documents' })
  @Nullable()
  @IsUUID()
  fileId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'A document type of the tenant (settings area)' })
  @Nullable()
  @IsUUID()
  documentTypeId?: string | null;

  @Text(150, 'Used only when no documentTypeId is given') documentTypeName?: string | null;

  @ApiPropertyOptional({ enum: SHARING_TYPES, description: 'RESTRICTED: its owner, sharing users and groups, oversight people, System Admins and Auditors see it; TENANT: everyone in the tenant' })
  @OptionalNotNull()
  @IsIn(SHARING_TYPES)
  documentSharingType?: string;

  @ApiPropertyOptional({ enum: UPLOAD_TYPES, description: 'LINKED: documentUrl; UPLOADED: fileId' })
  @OptionalNotNull()
  @IsIn(UPLOAD_TYPES)
  documentUploadType?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DOCUMENT_URL_MAX, description: 'An http or https URL (LINKED documents)', example: 'https://intranet.example.com/policies/doa.pdf' })
  @Nullable()
  @LinkUrl()
  documentUrl?: string | null;

  @SharingGroups() documentSharingGroups?: DocumentSharingGroupDto[];
  @SharingUsers() documentSharingUsers?: DocumentSharingUserDto[];

  @ApiPropertyOptional({ description: 'true/false, as a boolean or a string', example: 'false' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isExternal?: boolean;
}

export class CreateDocumentDto extends DocumentFieldsDto {
  @ApiProperty({ maxLength: DOCUMENT_NAME_MAX, example: 'Delegation of Authority Policy' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(DOCUMENT_NAME_MAX)
  documentName: string;

  @ApiPropertyOptional({ enum: CREATE_STATUSES, default: 'DRAFT' })
  @OptionalNotNull()
  @IsIn(CREATE_STATUSES)
  documentStatus?: string;
}

export class UpdateDocumentDto extends DocumentFieldsDto {
  @ApiPropertyOptional({ maxLength: DOCUMENT_NAME_MAX })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(DOCUMENT_NAME_MAX)
  documentName?: string;

  @ApiPropertyOptional({ enum: CHANGE_STATUSES, description: 'DRAFT -> PUBLISHED -> ARCHIVED; DELETED deletes the document (softly)' })
  @OptionalNotNull()
  @IsIn(CHANGE_STATUSES)
  documentStatus?: string;

  @ApiPropertyOptional({ type: DocumentOversightDto, description: 'The oversight people, as the top-level fields name them (these win when both are sent)' })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => DocumentOversightDto)
  documentOversights?: DocumentOversightDto;

  @ApiPropertyOptional({ type: DocumentLinkingDto })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => DocumentLinkingDto)
  documentLinking?: DocumentLinkingDto;
}

/** The fields an update may name (at least one). */
export const DOCUMENT_UPDATE_FIELDS = [
  'documentName', 'documentDescription', 'documentIcon', 'documentOwnerId', 'documentMetadata', 'fileId', 'documentTypeId', 'documentTypeName', 'documentStatus',
  'documentSharingType', 'documentUploadType', 'documentUrl', 'documentSharingGroups', 'documentSharingUsers', 'isExternal', 'documentOversights', 'documentLinking',
  'responsibleUserId', 'responsibleUsername', 'responsiblePositionId', 'responsiblePositionName', 'reviewerUserId', 'reviewerUsername', 'reviewerPositionId',
  'reviewerPositionName', 'approverUserId', 'approverUsername', 'approverPositionId', 'approverPositionName',
] as const satisfies readonly (keyof UpdateDocumentDto)[];

export const OVERSIGHT_FIELDS = [
  'responsibleUserId', 'responsibleUsername', 'responsiblePositionId', 'responsiblePositionName', 'reviewerUserId', 'reviewerUsername', 'reviewerPositionId',
  'reviewerPositionName', 'approverUserId', 'approverUsername', 'approverPositionId', 'approverPositionName',
] as const satisfies readonly (keyof DocumentOversightDto)[];

/** POST /documents/{id}/review */
export class ReviewAnswerDto {
  @ApiProperty({ enum: ['APPROVED', 'CHANGES_REQUESTED'] })
  @IsIn(['APPROVED', 'CHANGES_REQUESTED'])
  decision: 'APPROVED' | 'CHANGES_REQUESTED';

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @Nullable()
  @IsString()
  @MaxLength(2000)
  comment?: string | null;
}

/** POST /documents/{id}/approve */
export class ApprovalAnswerDto {
  @ApiProperty({ enum: ['APPROVED', 'REJECTED'] })
  @IsIn(['APPROVED', 'REJECTED'])
  decision: 'APPROVED' | 'REJECTED';

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @Nullable()
  @IsString()
  @MaxLength(2000)
  comment?: string | null;
}
