import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, ResponseMessage, UuidParam } from '@ddm/contracts';
import { CurrenciesService } from './currencies.service';
import { TenantCurrencyView } from './dto/currency.response';

@ApiTags('Users')
@ApiAuth()
@Controller('v1/user')
export class CurrenciesController {
  constructor(private readonly currencies: CurrenciesService) {}

  @Get('tenant/:tenantId/currencies')
  @ApiOperation({
    summary: 'Get current tenant currencies',
    description:
      "The tenant's currencies: its base currency first, then its groups' base currencies, then those with a rate (PUT /decision/v1/authority/currency-rates), each once. " +
      'Membership of the tenant is all it needs (403 otherwise).',
  })
  @ApiOkResponse({ type: [TenantCurrencyView] })
  @ResponseMessage('Default currency list fetched successfully')
  list(@UuidParam('tenantId') _tenantId: string, @CurrentCaller() caller: Caller): Promise<TenantCurrencyView[]> {
    // The guard resolved the caller in the path's tenant (403 when not a member).
    return this.currencies.list(caller.tenantId);
  }
}
