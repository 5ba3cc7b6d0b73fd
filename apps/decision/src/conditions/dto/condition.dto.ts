import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Nullable, OptionalNotNull, PageQuery, ToBoolean, Trim } from '@ddm/contracts';
import { CONDITION_SORTS, ConditionSort } from '../condition.sql';

export const CONDITION_NAME_MAX = 150;
export const CONDITION_DESCRIPTION_MAX = 5000;

/** POST /decision/v1/delegations/{delegationId}/conditions */
export class CreateConditionDto {
  @ApiProperty({ maxLength: CONDITION_NAME_MAX, example: 'Only within the approved budget' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(CONDITION_NAME_MAX)
  conditionName: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_DESCRIPTION_MAX })
  @Nullable()
  @IsString()
  @MaxLength(CONDITION_DESCRIPTION_MAX)
  conditionDescription?: string | null;

  @ApiPropertyOptional({ default: true, description: 'A boolean, or the strings "true"/"false"' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isActive?: boolean;
}

/** PATCH /decision/v1/delegations/{delegationId}/conditions/{conditionId}: any of the fields. */
export class UpdateConditionDto {
  @ApiPropertyOptional({ maxLength: CONDITION_NAME_MAX })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(CONDITION_NAME_MAX)
  conditionName?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_DESCRIPTION_MAX })
  @Nullable()
  @IsString()
  @MaxLength(CONDITION_DESCRIPTION_MAX)
  conditionDescription?: string | null;

  @ApiPropertyOptional({ description: 'A boolean, or the strings "true"/"false"' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isActive?: boolean;
}

/** The lists of conditions and of their history (spec §4.1). */
export class ConditionsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only active (true) or inactive (false) conditions' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional({ enum: CONDITION_SORTS, default: 'updatedAt' })
  @OptionalNotNull()
  @IsIn(CONDITION_SORTS)
  sortBy: ConditionSort = 'updatedAt';
}

export class ConditionDetailsView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ maxLength: CONDITION_NAME_MAX }) conditionName: string;
  @ApiProperty({ type: String, nullable: true }) conditionDescription: string | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** A delegation condition mapping (spec §2.1). */
export class ConditionMappingView {
  @ApiProperty({ format: 'uuid', description: 'The mapping id' }) id: string;
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ format: 'uuid' }) conditionId: string;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: ConditionDetailsView }) conditionDetails: ConditionDetailsView;
}
