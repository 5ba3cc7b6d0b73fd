import { ApiProperty } from '@nestjs/swagger';
import type { TenantCurrency } from '../currency.rules';

/** One of the tenant's currencies (GET /auth/v1/user/tenant/{tenantId}/currencies). */
export class TenantCurrencyView implements TenantCurrency {
  @ApiProperty({ example: 'Euro', description: 'The currency\'s English name' }) currency: string;
  @ApiProperty({ example: 'EUR', description: 'ISO 4217 code' }) currencyCode: string;
}
