import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, RequirePermission, ResponseMessage } from '@ddm/contracts';
import { ApiConsistentRead, CommittedChange, ConsistencyHeader } from '@ddm/platform';
import { WhatIfDto, WhatIfView } from './dto/what-if.dto';
import { MAX_ANSWER_ITEMS, MAX_CHANGES, MAX_DECISIONS_EVALUATED } from './what-if.rules';
import { WhatIfService } from './what-if.service';

@ApiTags('Authority')
@ApiAuth()
@Controller('v1/authority')
export class WhatIfController {
  constructor(private readonly whatIf: WhatIfService) {}

  @Post('what-if')
  @HttpCode(200)
  @RequirePermission('view:decisions')
  @ApiOperation({
    summary: 'What would a reorganisation do to delegations and authority?',
    description:
      `Applies 1..${MAX_CHANGES} proposed changes, in order, exactly as the events of auth and settings (and a PATCH of a decision's limit) would be applied, ` +
      'then answers which live delegations would become invalid (and for which fields), who would lose or gain authority of a decision (person, decision, authority type), ' +
      "and which decisions' groups (or whole scopes) would lose their last holder. Nothing is written: the evaluation runs in one transaction that is always rolled back, " +
      'so no delegation, revision, history row or event survives it; the same invalidation rules and authority engine decide as for real changes. ' +
      `Holders are compared for the decisions the changes reach (at most ${MAX_DECISIONS_EVALUATED}); each list holds at most ${MAX_ANSWER_ITEMS} items, ` +
      'and a request whose answer would be longer is refused (400), never cut short.',
  })
  @ApiOkResponse({ type: WhatIfView })
  @ApiBadRequestResponse({
    description:
      'No changes or more than 100, a field a change type needs missing or one it does not take, a limit change naming an authority type its decision does not hold, ' +
      'a change that would change nothing or that settings would refuse (a cycle in the hierarchy), too broad a request, or a malformed consistency token; each problem named `changes.<index>.<field>`',
  })
  @ApiNotFoundResponse({
    description: "A person, position, group, decision or authority type a change names that is not one of the tenant's live records (unknown, deleted, or another tenant's); each named `changes.<index>.<field>`",
  })
  @ApiConflictResponse({ description: 'The records the changes touch are being changed by another request; ask again' })
  @ApiConsistentRead()
  @ResponseMessage('What-if evaluated successfully')
  evaluate(@Body() body: WhatIfDto, @ConsistencyHeader() fresh: CommittedChange[], @CurrentCaller() caller: Caller): Promise<WhatIfView> {
    return this.whatIf.whatIf(caller, body, fresh);
  }
}
