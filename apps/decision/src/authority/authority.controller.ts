import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage } from '@ddm/contracts';
import { AuthorityService } from './authority.service';
import { AuthorityCheckDto, AuthorityCheckView, AuthorityHolderView, AuthorityHoldersQuery } from './dto/authority-check.dto';

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
  @ApiBadRequestResponse({ description: 'Neither or both of userId and positionId, a bad value, or an unknown field' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's decision" })
  @ResponseMessage('Authority checked successfully')
  check(@Body() body: AuthorityCheckDto, @CurrentCaller() caller: Caller): Promise<AuthorityCheckView> {
    return this.authority.check(caller, body);
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
