import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsNotEmpty, IsObject, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull, PageQuery, ToBoolean, Trim } from '@ddm/contracts';
import { SOD_RULE_NAME_MAX, SOD_RULE_SORTS, SodRuleSort } from '../sod.rules';

const TenantId = () => applyDecorators(ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" }), OptionalNotNull(), IsUUID());

/** One side of a rule: an authority type the decision has. */
export class SodSideDto {
  @ApiProperty({ format: 'uuid', description: 'A live decision of the tenant' })
  @IsUUID()
  decisionId: string;

  @ApiProperty({ format: 'uuid', description: 'One of the decision\'s authority types' })
  @IsUUID()
  authorityTypeId: string;
}

const Side = (description: string, required: boolean) =>
  applyDecorators(
    required ? ApiProperty({ type: SodSideDto, description }) : ApiPropertyOptional({ type: SodSideDto, description }),
    required ? IsDefined() : OptionalNotNull(),
    IsObject(),
    ValidateNested(),
    Type(() => SodSideDto),
  );

const SameGroupOnly = () =>
  applyDecorators(
    ApiPropertyOptional({ default: false, description: "Only a conflict when the two delegations' groups overlap (a delegation without groups covers the decision's whole scope)" }),
    OptionalNotNull(),
    ToBoolean(),
    IsBoolean(),
  );

/** POST /decision/v1/authority/sod-rules: whoever holds `left` must not also hold `right`. */
export class CreateSodRuleDto {
  @TenantId()
  tenantId?: string;

  @ApiProperty({ maxLength: SOD_RULE_NAME_MAX, description: 'Unique among the tenant\'s rules (case-insensitive)', example: 'Who approves an invoice does not pay it' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(SOD_RULE_NAME_MAX)
  name: string;

  @Side('The side held first', true)
  left: SodSideDto;

  @Side('The side its holder must not also hold (another decision, or another authority type of the same decision)', true)
  right: SodSideDto;

  @SameGroupOnly()
  sameGroupOnly?: boolean;
}

/** PATCH /decision/v1/authority/sod-rules/{id}: the fields given change (a side is replaced whole). */
export class UpdateSodRuleDto {
  @TenantId()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: SOD_RULE_NAME_MAX })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(SOD_RULE_NAME_MAX)
  name?: string;

  @Side('The side held first', false)
  left?: SodSideDto;

  @Side('The side its holder must not also hold', false)
  right?: SodSideDto;

  @SameGroupOnly()
  sameGroupOnly?: boolean;
}

export const SOD_RULE_UPDATE_FIELDS = ['name', 'left', 'right', 'sameGroupOnly'] as const satisfies readonly (keyof UpdateSodRuleDto)[];

/** GET /decision/v1/authority/sod-rules: the tenant's rules, by name unless sortBy says otherwise. */
export class SodRulesQuery extends PageQuery {
  @TenantId()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: SOD_RULE_NAME_MAX, description: 'Contained in the name (case-insensitive)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(SOD_RULE_NAME_MAX)
  search?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the rules with this decision on either side' })
  @OptionalNotNull()
  @IsUUID()
  decisionId?: string;

  @ApiPropertyOptional({ enum: SOD_RULE_SORTS, default: 'name', description: 'name sorts case-insensitively' })
  @OptionalNotNull()
  @IsIn(SOD_RULE_SORTS)
  sortBy: SodRuleSort = 'name';
}
