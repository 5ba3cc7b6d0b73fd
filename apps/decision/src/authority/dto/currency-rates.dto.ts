import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsISO8601, IsString, IsUUID, Matches, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '@ddm/contracts';

export class CurrencyRateDto {
  @ApiProperty({ example: 'EUR', description: 'ISO 4217 code' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 code (three capital letters)' })
  currency: string;

  @ApiProperty({ example: '1.08', description: "One unit of the currency in the tenant's base currency (a positive decimal, at most 12 decimals)" })
  @IsString()
  @Matches(/^(0|[1-9]\d{0,17})(\.\d{1,12})?$/, { message: '$property must be a decimal with at most 18 digits before the point and 12 after' })
  @Matches(/[1-9]/, { message: '$property must be above zero' })
  rate: string;

  @ApiProperty({ format: 'date', example: '2026-01-01', description: 'In force from this day (UTC) until the next rate of the currency' })
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: '$property must be a date (YYYY-MM-DD)' })
  @IsISO8601({ strict: true }, { message: '$property must be a real date' })
  validFrom: string;
}

/** PUT /decision/v1/authority/currency-rates: the tenant's rates, all of them (what is not sent is removed). */
export class CurrencyRatesDto {
  @ApiProperty({ format: 'uuid', required: false, description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ type: [CurrencyRateDto], maxItems: 500 })
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => CurrencyRateDto)
  rates: CurrencyRateDto[];
}

export class CurrencyRateView {
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ example: '1.08' }) rate: string;
  @ApiProperty({ format: 'date' }) validFrom: string;
}

export class CurrencyRatesView {
  @ApiProperty({ example: 'USD', description: "The tenant's base currency (its settings)" }) baseCurrency: string;
  @ApiProperty({ type: [CurrencyRateView] }) rates: CurrencyRateView[];
}
