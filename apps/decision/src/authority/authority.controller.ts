import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, RequirePermission, ResponseMessage } from '@ddm/contracts';
import { AuthorityService } from './authority.service';
import { AuthorityCheckDto, AuthorityCheckView } from './dto/authority-check.dto';

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
}
