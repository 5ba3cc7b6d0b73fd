import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNotEmpty, IsString, IsUUID, IsUrl, MaxLength, ValidateNested } from 'class-validator';
import { ATTESTATION_COMMENT_MAX, ATTESTATION_OUTCOMES, AttestationOutcome, IsoDateTime, Nullable, OptionalNotNull, Trim } from '@ddm/contracts';
import { ACTION_NAME_MAX, DESCRIPTION_MAX, MAX_ASSIGNEES, MAX_DUPLICATE_IDS, MAX_FILES, MAX_REASSIGN_IDS } from '../action.rules';

/** A file of an action: a link (http or https) and how to show it. */
export class ActionFileDto {
  @ApiProperty({ maxLength: 2048, example: 'https://files.example.com/board-pack.pdf' })
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: '$property must be an http or https URL' })
  fileUrl: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'application/pdf' })
  @Nullable()
  @IsString()
  @MaxLength(100)
  fileType?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'board-pack.pdf' })
  @Nullable()
  @IsString()
  @MaxLength(255)
  fileName?: string | null;
}

/** The fields of an action a create or update may send (spec §4.2). */
class ActionFieldsDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: "One of the tenant's action types" })
  @Nullable()
  @IsUUID()
  actionTypeId?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: "One of the tenant's priorities (default Medium)" })
  @OptionalNotNull()
  @IsUUID()
  actionPriorityId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "One of the tenant's statuses (default To Do)" })
  @OptionalNotNull()
  @IsUUID()
  actionStatusId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A member of the tenant (default: the caller)' })
  @OptionalNotNull()
  @IsUUID()
  ownerId?: string;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_ASSIGNEES, description: 'Members of the tenant; on update, replaces the assignees (those kept keep their status)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ASSIGNEES)
  @IsUUID('all', { each: true })
  assigneeIds?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @Nullable()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: "One of the tenant's action templates (GET /settings/v1/action-templates)" })
  @Nullable()
  @IsUUID()
  actionTemplateId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Nullable()
  @IsUUID()
  decisionId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Nullable()
  @IsUUID()
  delegationId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Nullable()
  @IsUUID()
  documentId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2026-12-31T17:00:00.000Z' })
  @Nullable()
  @IsoDateTime()
  dueDate?: string | null;

  @ApiPropertyOptional({ type: [ActionFileDto], maxItems: MAX_FILES, description: 'On update, replaces the files' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_FILES)
  @ValidateNested({ each: true })
  @Type(() => ActionFileDto)
  files?: ActionFileDto[];
}

export class CreateActionDto extends ActionFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: ACTION_NAME_MAX, example: 'Prepare board pack' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ACTION_NAME_MAX)
  actionName: string;
}

export class UpdateActionDto extends ActionFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: ACTION_NAME_MAX })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ACTION_NAME_MAX)
  actionName?: string;
}

/** The fields an update may change; one naming none of them is a 400. */
export const ACTION_UPDATE_FIELDS = [
  'actionName', 'actionTypeId', 'actionPriorityId', 'actionStatusId', 'ownerId', 'assigneeIds', 'description',
  'actionTemplateId', 'decisionId', 'delegationId', 'documentId', 'dueDate', 'files',
] as const satisfies readonly (keyof UpdateActionDto)[];

export class BulkReassignDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_REASSIGN_IDS, description: 'Record ids of the actions' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REASSIGN_IDS)
  @IsUUID('all', { each: true })
  actionIds: string[];

  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_ASSIGNEES, description: 'User ids: each action ends up assigned to exactly these people' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ASSIGNEES)
  @IsUUID('all', { each: true })
  assigneeIds: string[];

  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;
}

export class BulkDuplicateActionsDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_DUPLICATE_IDS, description: 'Record ids of the actions to copy' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DUPLICATE_IDS)
  @IsUUID('all', { each: true })
  actionIds: string[];

  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;
}

/** PATCH validate-action: is there an open Delegation Request action the caller opened for the delegation (or decision)? */
export class ValidateActionDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  tenantId: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @OptionalNotNull()
  @IsUUID()
  delegationId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @OptionalNotNull()
  @IsUUID()
  decisionId?: string;
}

/** PATCH {actionId}/assignee/status: the caller's own status on the action. */
export class AssigneeStatusDto {
  @ApiProperty({ maxLength: 50, example: 'Completed', description: "One of the tenant's status names (GET /actions/v1/action-statuses)" })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  status: string;

  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;
}

/** POST /actions/v1/actions/{actionId}/attestation-response: a holder answers the Attestation action of a delegation. */
export class AttestationResponseDto {
  @ApiProperty({ enum: ATTESTATION_OUTCOMES, description: 'CONFIRMED: the holder holds it rightly; DISPUTED: it is flagged for its issuer' })
  @IsIn(ATTESTATION_OUTCOMES)
  outcome: AttestationOutcome;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ATTESTATION_COMMENT_MAX })
  @Nullable()
  @Trim()
  @IsString()
  @MaxLength(ATTESTATION_COMMENT_MAX)
  comment?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;
}
