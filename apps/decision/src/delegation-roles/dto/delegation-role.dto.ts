import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { DELEGATION_RECIPIENT_TYPES, Nullable, OptionalNotNull, PageQuery, ToBoolean } from '@ddm/contracts';

/** A role's status on a delegation: ours (ACTIVE, INACTIVE) and the product's (ASSIGNED, ACKNOWLEDGED: in force, as ACTIVE). */
export const ROLE_STATUSES = ['ACTIVE', 'INACTIVE', 'ASSIGNED', 'ACKNOWLEDGED'] as const;
/** Most designees one role of a delegation names. */
export const MAX_ROLE_DESIGNEES = 100;

export class RoleDesigneeDto {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Nullable()
  @IsUUID()
  designeeUserId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Nullable()
  @IsUUID()
  designeePositionId?: string | null;
}

/** PATCH /decision/v1/delegations/{delegationId}/roles/{roleId}: what is left out stays (or takes its default on the first change). */
export class UpdateDelegationRoleDto {
  @ApiPropertyOptional({ type: String, enum: DELEGATION_RECIPIENT_TYPES, nullable: true, description: 'How the designees are named (as a recipient is)' })
  @Nullable()
  @IsIn(DELEGATION_RECIPIENT_TYPES)
  designeeRecipientType?: string | null;

  @ApiPropertyOptional({ description: 'Tell the designees at once' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isAutoIssue?: boolean;

  @ApiPropertyOptional({ type: [RoleDesigneeDto], maxItems: MAX_ROLE_DESIGNEES })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ROLE_DESIGNEES)
  @ValidateNested({ each: true })
  @Type(() => RoleDesigneeDto)
  roleDesignees?: RoleDesigneeDto[];

  @ApiPropertyOptional({ enum: ROLE_STATUSES, description: 'ASSIGNED and ACKNOWLEDGED (the product\'s values) hold as ACTIVE does; answered as sent' })
  @OptionalNotNull()
  @IsIn(ROLE_STATUSES)
  roleStatus?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50, example: 'Required' })
  @Nullable()
  @IsString()
  @MaxLength(50)
  roleRequirement?: string | null;

  @ApiPropertyOptional({ description: 'Give the same role to every live delegation below this one' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isCascade?: boolean;
}

export class RolesQuery extends PageQuery {}

export class RoleDesigneeView {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) designeeUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) designeePositionId: string | null;
}

/** A decision role on a delegation: the tenant's role and, once set, how the delegation fills it. */
export class DelegationRoleView {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The mapping (null while the role is not set on the delegation)' }) id: string | null;
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ format: 'uuid' }) roleId: string;
  @ApiProperty({ example: 'Informed' }) roleName: string;
  @ApiProperty({ type: String, nullable: true, enum: DELEGATION_RECIPIENT_TYPES }) designeeRecipientType: string | null;
  @ApiProperty() isAutoIssue: boolean;
  @ApiProperty({ type: [RoleDesigneeView] }) roleDesignees: RoleDesigneeView[];
  @ApiProperty({ enum: ROLE_STATUSES, description: 'INACTIVE while not set' }) roleStatus: string;
  @ApiProperty({ type: String, nullable: true }) roleRequirement: string | null;
  @ApiProperty() isCascade: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updatedAt: string | null;
}
