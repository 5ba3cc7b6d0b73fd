import { Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, ResponseMessage } from '@ddm/contracts';
import { AnswerNotKept } from '@ddm/platform';
import { TenantQuery } from '../core/tenant.query';
import { StreamTicketView } from './dto/stream-ticket.response';
import { StreamTicketsService } from './stream-tickets.service';

@ApiTags('Notifications')
@ApiAuth()
@Controller('v1/notifications/stream-tickets')
export class StreamTicketsController {
  constructor(private readonly tickets: StreamTicketsService) {}

  @Post()
  @HttpCode(200)
  // The answer holds the ticket, which is stored only as a hash: never kept for an Idempotency-Key's retries.
  @AnswerNotKept()
  @ApiOperation({
    summary: 'Issue a ticket that opens the notifications stream without a bearer token',
    description:
      "For browsers, whose EventSource cannot send an Authorization header: `new EventSource('/v1/notifications/stream?ticket=' + ticket)`. " +
      'The ticket is bound to the caller and the tenant, opens one stream (any later use is a 401), and expires at expiresAt (at most 60 s). ' +
      'A stream that ends does not reconnect with it: ask for a new ticket and reopen, with `lastEventId` to get what was missed.',
  })
  @ApiOkResponse({ type: StreamTicketView })
  @ResponseMessage('Stream ticket issued successfully')
  issue(@Query() _query: TenantQuery, @CurrentCaller() caller: Caller): Promise<StreamTicketView> {
    return this.tickets.issue(caller);
  }
}
