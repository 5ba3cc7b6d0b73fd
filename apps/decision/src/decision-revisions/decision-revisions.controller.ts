import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, IsoDateTimeParam, Page, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DecisionHistoryEntryView, DecisionRevisionView } from './dto/decision-revision.response';
import { HistoryQuery } from './dto/history.query';
import { DecisionRevisionsService } from './decision-revisions.service';

@ApiTags('Decisions')
@ApiAuth()
@Controller('v1/decisions')
export class RevisionsController {
  constructor(private readonly revisions: DecisionRevisionsService) {}

  // Before ':revisionDate'.
  @Get(':id/history')
  @ApiOperation({ summary: "A decision's history", description: 'Every change (created, updated, deleted, restored), newest first (`sortOrder=asc`: oldest first): when, by whom, which fields.' })
  @ApiPageResponse(DecisionHistoryEntryView, 'Paged revisions, newest first')
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's decision" })
  @ResponseMessage('Decision history retrieved successfully')
  history(@UuidParam('id') id: string, @Query() query: HistoryQuery, @CurrentCaller() caller: Caller): Promise<Page<DecisionHistoryEntryView>> {
    return this.revisions.history(caller, id, query);
  }

  @Get(':id/:revisionDate')
  @ApiOperation({ summary: 'A decision as it stood at an instant', description: 'Any ISO 8601 date-time, not only one of a revision: the newest revision made at or before it.' })
  @ApiOkResponse({ type: DecisionRevisionView })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant\'s decision, or an instant before its creation' })
  @ResponseMessage('Decision revision retrieved successfully')
  at(@UuidParam('id') id: string, @IsoDateTimeParam('revisionDate') revisionDate: string, @CurrentCaller() caller: Caller): Promise<DecisionRevisionView> {
    return this.revisions.at(caller, id, revisionDate);
  }
}
