import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage } from '@ddm/contracts';
import { ApiConsistentRead, CommittedChange, ConsistencyHeader } from '@ddm/platform';
import { AuthorityService } from './authority.service';
import {
  AuthorityCheckBatchDto,
  AuthorityCheckBatchView,
  AuthorityCheckDto,
  AuthorityCheckView,
  AuthorityDecisionsQuery,
  AuthorityHolderView,
  AuthorityHoldersQuery,
  CONSISTENT_AS_OF,
  HeldDecisionView,
} from './dto/authority-check.dto';
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
  @ApiBadRequestResponse({
    description: 'Neither or both of userId and positionId, a bad value, an unknown field, a malformed consistency token, or a value in another currency than the limit\'s without the tenant\'s rates for it',
  })
  @ApiNotFoundResponse({
    description:
      "Unknown, or another tenant's decision (`decisionId`); or, when the check is refused, a `userId`, `positionId`, `groupId` or `authorityTypeId` that is no record of the tenant, " +
      'named in `errors[].field` (a record deleted since is still one: the check answers about an instant)',
  })
  @ApiConsistentRead()
  @ResponseMessage('Authority checked successfully')
  check(@Body() body: AuthorityCheckDto, @ConsistencyHeader() fresh: CommittedChange[], @CurrentCaller() caller: Caller): Promise<AuthorityCheckView> {
    return this.authority.check(caller, body, fresh);
  }

  @Post('check-batch')
  @HttpCode(200)
  @RequirePermission('view:decisions')
  @ApiOperation({
    summary: 'Many authority checks at once',
    description:
      'Up to 1,000 checks (the body of `check` each), read in one statement; the answers in the same order. A check naming another tenant is a 400, an unknown decision a 404, ' +
      'and so is a refused check naming a person, position, group or authority type the tenant does not have; each named `checks.<index>.<field>`.',
  })
  @ApiOkResponse({ type: AuthorityCheckBatchView })
  @ApiBadRequestResponse({ description: 'No checks or more than 1,000, a malformed consistency token, or a check that is a 400 on its own (named `checks.<index>.<field>`)' })
  @ApiNotFoundResponse({
    description:
      "A check names an unknown, or another tenant's decision; or a refused check names a person, position, group or authority type that is no record of the tenant (deleted or not), " +
      'each named `checks.<index>.<field>` in `errors[]`',
  })
  @ApiConsistentRead()
  @ResponseMessage('Authority checked successfully')
  checkBatch(@Body() body: AuthorityCheckBatchDto, @ConsistencyHeader() fresh: CommittedChange[], @CurrentCaller() caller: Caller): Promise<AuthorityCheckBatchView> {
    return this.authority.checkBatch(caller, body, fresh);
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

  @Get('decisions')
  @ApiOperation({
    summary: 'What a person may decide ("my authority")',
    description:
      'Every decision the person (or position) may decide at `at` (default now): per authority type the highest limit held through a chain in force (as the check answers it, ' +
      'whatever the value), how it is held and the chain giving it, root first; with `groupId`, only chains covering that group. In display id order, paged. ' +
      'A person may ask it of themselves; asking of anyone else (or of a position) needs view:decisions.',
  })
  @ApiPageResponse(HeldDecisionView, 'Paged decisions with the limits held', { consistentAsOf: { type: 'string', ...CONSISTENT_AS_OF } })
  @ApiBadRequestResponse({ description: 'Neither or both of userId and positionId, a malformed consistency token, or a bad parameter' })
  @ApiNotFoundResponse({ description: 'A `userId`, `positionId` or `groupId` that is no record of the tenant (deleted or not: `at` may precede the deletion), named in `errors[].field`' })
  @ApiConsistentRead()
  @ResponseMessage('Decisions held retrieved successfully')
  decisions(@Query() query: AuthorityDecisionsQuery, @ConsistencyHeader() fresh: CommittedChange[], @CurrentCaller() caller: Caller): Promise<Page<HeldDecisionView>> {
    return this.authority.decisionsHeld(caller, query, fresh);
  }

  @Get('holders')
  @RequirePermission('view:decisions')
  @ApiOperation({
    summary: "Who held a decision's authority",
    description:
      'Everyone who held it at `at` (default now) through a delegation in force whose whole chain was in force, each once: people (by person, in a position, or as holders of a ' +
      'POSITION_ONLY position) and POSITION_ONLY positions, with per authority type the highest limit, how it is held and every delegation giving it. None while the decision ' +
      'is not PUBLISHED. With `authorityTypeId` only that type, with `groupId` only chains covering that group. Ordered by limit (the type asked, or the decision\'s first), highest first, then by name; paged.',
  })
  @ApiPageResponse(AuthorityHolderView, 'Paged holders', { consistentAsOf: { type: 'string', ...CONSISTENT_AS_OF } })
  @ApiBadRequestResponse({ description: 'A bad parameter, or a malformed consistency token' })
  @ApiNotFoundResponse({
    description: "Unknown, or another tenant's decision; or an `authorityTypeId` or `groupId` that is no record of the tenant (deleted or not: `at` may precede the deletion), named in `errors[].field`",
  })
  @ApiConsistentRead()
  @ResponseMessage('Authority holders retrieved successfully')
  holders(@Query() query: AuthorityHoldersQuery, @ConsistencyHeader() fresh: CommittedChange[], @CurrentCaller() caller: Caller): Promise<Page<AuthorityHolderView>> {
    return this.authority.holders(caller, query, fresh);
  }
}
