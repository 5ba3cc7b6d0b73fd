/**
 * Request pieces that decisions and delegations share: an authority limit and a linked document
 * as a change sends them, and the limit filter a list takes (JSON-encoded in a query string).
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, plainToInstance } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, IsUUID, Matches, MaxLength, Min } from 'class-validator';
import { AUTHORITY_LIMIT_OPERATORS, AUTHORITY_LIMIT_VALUE_TYPES, Nullable, OptionalNotNull, ToBoolean } from '@ddm/contracts';
import { AUTHORITY_LIMITS } from '../decision-limits';

export class DecisionAuthorityDto {
  @ApiProperty({ format: 'uuid', description: 'An authority type of the tenant (Approval, Signatory, ...)' })
  @IsUUID()
  authorityTypeId: string;

  @ApiPropertyOptional({ minimum: 0, description: 'Order among the authorities (default: its place in the list)' })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  authorityTypeOrder?: number;

  @ApiProperty({ enum: AUTHORITY_LIMITS, example: 'Primary' })
  @IsIn(AUTHORITY_LIMITS)
  authorityLimit: string;

  @ApiProperty({ enum: AUTHORITY_LIMIT_VALUE_TYPES, example: 'Currency' })
  @IsIn(AUTHORITY_LIMIT_VALUE_TYPES)
  authorityLimitValueType: string;

  @ApiPropertyOptional({
    type: String,
    enum: [...AUTHORITY_LIMIT_OPERATORS, '', null],
    nullable: true,
    description: 'Required except for Authorized, where it is ignored (stored and answered as null); an empty string is absent',
  })
  @Nullable()
  @IsIn([...AUTHORITY_LIMIT_OPERATORS, ''])
  authorityLimitOperator?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 40, description: 'A non-negative decimal string or "Unlimited"; none (or an empty string) for Authorized', example: '500000' })
  @Nullable()
  @IsString()
  @MaxLength(40)
  authorityLimitValue?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 10, description: 'ISO 4217 code for Currency; Days, Months or Years for Time; none (or an empty string) otherwise', example: 'USD' })
  @Nullable()
  @IsString()
  @MaxLength(10)
  authorityLimitValueUnit?: string | null;
}

export class DecisionDocumentDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  documentId: string;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isPinned?: boolean;
}

const LIMIT_VALUE = /^((0|[1-9]\d{0,14})(\.\d{1,6})?|Unlimited)$/;
export const MAX_LIMIT_FILTERS = 10;

/** One limit filter: decisions with an authority of the value type whose limit lies in [minValue, maxValue] (numbers compared as numbers). */
export class LimitValueFilterDto {
  @ApiPropertyOptional({ enum: AUTHORITY_LIMIT_VALUE_TYPES })
  @IsIn(AUTHORITY_LIMIT_VALUE_TYPES)
  authorityLimitValueType: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '1000', description: 'A decimal (or "Unlimited": only unlimited limits)' })
  @Nullable()
  @IsString()
  @Matches(LIMIT_VALUE, { message: '$property must be a non-negative decimal or "Unlimited"' })
  minValue?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Unlimited', description: 'A decimal, or "Unlimited" for no upper bound' })
  @Nullable()
  @IsString()
  @Matches(LIMIT_VALUE, { message: '$property must be a non-negative decimal or "Unlimited"' })
  maxValue?: string | null;
}

/**
 * A JSON-encoded array of `cls` in a query string (`authorityLimitValueFilters=[{...}]`), or the
 * array itself in a body. class-transformer runs `@Type` before this, while the value is still a
 * string, so the parsed items are made instances here (as plain objects, whitelisting would refuse
 * every field of theirs and nothing inside would be validated).
 */
export const JsonArrayOf = (cls: new () => object, max: number) =>
  Transform(
    ({ value }) => {
      if (typeof value !== 'string') return value;
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return value; // not JSON: IsArray names the field
      }
      if (!Array.isArray(parsed) || parsed.length > max) return parsed; // IsArray or ArrayMaxSize names the field
      return parsed.map((item: unknown) => (item && typeof item === 'object' && !Array.isArray(item) ? plainToInstance(cls, item) : item));
    },
    { toClassOnly: true },
  );

