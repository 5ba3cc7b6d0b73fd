import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DelegationChangelogService } from './delegation-changelog.service';
import { ChangelogEntryView, ChangelogQuery } from './dto/delegation-changelog.dto';

@ApiTags('Delegations')
@ApiAuth()
@Controller('v1/delegations')
export class ChangelogController {
  constructor(private readonly changelog: DelegationChangelogService) {}

  @Get(':id/changelog')
  @ApiOperation({
    summary: "A delegation's change log",
    description: 'Every change of the delegation is a revision (revisionId "1", "2", ...), with who made it and the fields it changed. Each entry\'s id is a delegation history id.',
  })
  @ApiPageResponse(ChangelogEntryView, 'Paged change log entries')
  @ApiBadRequestResponse({ description: 'A bad parameter (limit outside 1..100, unknown sortBy)' })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's" })
  @ResponseMessage('Delegation changelog retrieved successfully')
  list(@UuidParam('id') id: string, @Query() query: ChangelogQuery, @CurrentCaller() caller: Caller): Promise<Page<ChangelogEntryView>> {
    return this.changelog.changelog(caller, id, query);
  }
}
