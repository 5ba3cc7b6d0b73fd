import { createHash } from 'node:crypto';
import { isTicketShaped, newTicket, ticketHash } from './stream-ticket.rules';

describe('stream tickets', () => {
  it('are random, URL-safe, 256 bits; what is stored is their SHA-256, never the ticket', () => {
    const a = newTicket();
    const b = newTicket();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(encodeURIComponent(a)).toBe(a);
    expect(ticketHash(a)).toBe(createHash('sha256').update(a).digest('hex'));
    expect(ticketHash(a)).not.toContain(a);
  });

  it('anything not shaped like one is refused before the database is asked', () => {
    expect(isTicketShaped(newTicket())).toBe(true);
    for (const bad of ['', 'short', `${newTicket()}x`, `${newTicket().slice(1)}=`, `${newTicket().slice(1)}/`]) expect(isTicketShaped(bad)).toBe(false);
  });
});
