import { Inject, Injectable } from '@nestjs/common';
import { Caller, TicketHolder } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { NOTIFICATIONS_OPTIONS, NotificationsOptions } from '../core/notifications.config';
import { StreamTicketView } from './dto/stream-ticket.response';
import { isTicketShaped, newTicket, ticketHash } from './stream-ticket.rules';
import { IssuedTicketRow, RedeemedTicketRow, issueTicketSql, redeemTicketSql } from './stream-ticket.sql';

/**
 * One-time tickets that open the caller's notifications stream without a bearer token (a
 * browser's EventSource sends no header): issued to the caller in the tenant, good for
 * NOTIFICATIONS_STREAM_TICKET_TTL_SECONDS, used up by the first request that shows it. Kept in
 * Postgres (its hash only), so single use holds across replicas.
 */
@Injectable()
export class StreamTicketsService {
  constructor(
    private readonly db: Db,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
  ) {}

  async issue(caller: Caller): Promise<StreamTicketView> {
    const ticket = newTicket();
    const [row] = await this.db.query<IssuedTicketRow>(
      issueTicketSql(ticketHash(ticket), caller.tenantId, caller.userId, caller.claims.sub, caller.claims.email, this.options.streamTicketTtlSeconds),
    );
    return { ticket, expiresAt: new Date(row.expires_at).toISOString() };
  }

  /** Uses the ticket up: whom it was issued to, or null when it is unknown, used or expired. */
  async redeem(ticket: string): Promise<TicketHolder | null> {
    if (!isTicketShaped(ticket)) return null;
    // The tenant is what the ticket tells: it is found by its hash alone.
    const [row] = await this.db.acrossTenants('redeem a stream ticket (its tenant is what it names)', () =>
      this.db.query<RedeemedTicketRow>(redeemTicketSql(ticketHash(ticket))),
    );
    if (!row?.live) return null;
    return { tenantId: row.tenant_id, userId: row.user_id, sub: row.sub, email: row.email ?? undefined, expiresAt: new Date(row.expires_at) };
  }
}
