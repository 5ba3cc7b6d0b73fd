import { Injectable } from '@nestjs/common';
import { TicketHolder, TicketRedeemer } from '@ddm/contracts';
import { StreamTicketsService } from './stream-tickets.service';

/**
 * What other resources ask of the stream tickets: the redeemer the stream route names
 * (`@AcceptsTicket(StreamTicketRefs)`), which the guard asks to use a `?ticket=` up.
 */
@Injectable()
export class StreamTicketRefs implements TicketRedeemer {
  constructor(private readonly tickets: StreamTicketsService) {}

  redeem(ticket: string): Promise<TicketHolder | null> {
    return this.tickets.redeem(ticket);
  }
}
