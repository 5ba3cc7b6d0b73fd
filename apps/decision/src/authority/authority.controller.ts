import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage } from '@ddm/contracts';
import { AuthorityService } from './authority.service';
import { AuthorityCheckBatchDto, AuthorityCheckBatchView, AuthorityCheckDto, AuthorityCheckView, AuthorityHolderView, AuthorityHoldersQuery } from './dto/authority-check.dto';
import { CurrencyRatesDto, CurrencyRatesView } from './dto/currency-rates.dto';

@ApiTags('Authority')
@ApiAuth()
@Controller('v1/authority')
export class AuthorityController {
  constructor(private readonly authority: AuthorityService) {}

  @Post('check')
  @HttpCode(200)
  @RequirePermission('view:decisions')
  @ApiOperation({
    summary: 'May this person decide this?',
    description:
      'Whether the person (or position) held, at `at` (default now), a chain of delegations from the decision\'s root whose every link was ISSUED or ACCEPTED, effective, ' +
      'not expired, suspended, revoked or invalid, covered the group, and admitted the value; with the chain of the highest limit, or the reasons of the nearest misses.',
  })
  @ApiOkResponse({ type: AuthorityCheckView })
  @ApiBadRequestResponse({ description: 'Neither or both of userId and positionId, a bad value, an unknown field, or a value in another currency than the limit\'s without the tenant\'s rates for it' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's decision" })
  @ResponseMessage('Authority checked successfully')
  check(@Body() body: AuthorityCheckDto, @CurrentCaller() caller: Caller): Promise<AuthorityCheckView> {
    return this.authority.check(caller, body);
  }

  @Post('check-batch')
  @HttpCode(200)
  @RequirePermission('view:decisions')
  @ApiOperation({
    summary: 'Many authority checks at once',
    description: 'Up to 1,000 checks (the body of `check` each), read in one statement; the answers in the same order. A check naming another tenant is a 400, an unknown decision a 404, each naming `checks.<index>`.',
  })
  @ApiOkResponse({ type: AuthorityCheckBatchView })
  @ApiBadRequestResponse({ description: 'No checks or more than 1,000, or a check that is a 400 on its own (named `checks.<index>.<field>`)' })
  @ApiNotFoundResponse({ description: "A check names an unknown, or another tenant's decision" })
  @ResponseMessage('Authority checked successfully')
  checkBatch(@Body() body: AuthorityCheckBatchDto, @CurrentCaller() caller: Caller): Promise<AuthorityCheckBatchView> {
    return this.authority.checkBatch(caller, body);
  }

  @Get('currency-rates')
  @RequirePermission('view:decisions')
  @ApiOperation({ summary: "The tenant's currency rates", description: "What one unit of each currency is worth in the tenant's base currency, from each date on: what the check converts a value in another currency than a limit's with." })
  @ApiOkResponse({ type: CurrencyRatesView })
  @ResponseMessage('Currency rates retrieved successfully')
  rates(@CurrentCaller() caller: Caller): Promise<CurrencyRatesView> {
    return this.authority.getRates(caller);
  }

  @Put('currency-rates')
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: "Set the tenant's currency rates", description: 'Replaces all of them with those sent (at most 500; one per currency and date; none for the base currency).' })
  @ApiOkResponse({ type: CurrencyRatesView })
  @ApiBadRequestResponse({ description: 'A bad code, rate or date, two rates of a currency for one date, the base currency, or a tenant without a base currency yet' })
  @ResponseMessage('Currency rates saved successfully')
  putRates(@Body() body: CurrencyRatesDto, @CurrentCaller() caller: Caller): Promise<CurrencyRatesView> {
    return this.authority.putRates(caller, body);
  }

  @Get('holders')
  @RequirePermission('view:decisions')
  @ApiOperation({
    summary: "Who held a decision's authority",
    description: 'Everyone who held it at `at` (default now) through a delegation in force whose whole chain was in force: people (by person, or while in the position) and positions with their holders then, with their limits.',
  })
  @ApiPageResponse(AuthorityHolderView, 'Paged holders')
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's decision" })
  @ResponseMessage('Authority holders retrieved successfully')
  holders(@Query() query: AuthorityHoldersQuery, @CurrentCaller() caller: Caller): Promise<Page<AuthorityHolderView>> {
    return this.authority.holders(caller, query);
  }
}
