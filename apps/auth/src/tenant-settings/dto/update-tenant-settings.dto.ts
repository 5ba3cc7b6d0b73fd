import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn } from 'class-validator';
import { OptionalNotNull } from '@ddm/contracts';
import { CURRENCY_CODES } from '../tenant-settings.rules';

/** A change of the tenant's delegation settings: at least one field (400 otherwise); those left out keep their value. */
export class UpdateTenantSettingsDto {
  @ApiPropertyOptional({ description: 'Issued delegations wait for the recipient to accept them' })
  @OptionalNotNull()
  @IsBoolean()
  delegationAcceptanceRequired?: boolean;

  @ApiPropertyOptional({ description: 'Issued delegations wait for an approval' })
  @OptionalNotNull()
  @IsBoolean()
  delegationApprovalRequired?: boolean;

  @ApiPropertyOptional({ description: 'ISO 4217 currency code, upper case', example: 'EUR', minLength: 3, maxLength: 3, pattern: '^[A-Z]{3}$' })
  @OptionalNotNull()
  @IsIn(CURRENCY_CODES, { message: 'baseCurrency must be an ISO 4217 currency code (USD, EUR, ...)' })
  baseCurrency?: string;
}
