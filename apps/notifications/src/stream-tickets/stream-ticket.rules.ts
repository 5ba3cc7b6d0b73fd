import { createHash, randomBytes } from 'node:crypto';

/** Random bytes in a ticket: 256 bits, unguessable. */
const TICKET_BYTES = 32;
/** A ticket as issued: base64url of TICKET_BYTES (43 characters). */
export const TICKET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new ticket: random, URL-safe (it travels in the stream's query). */
export function newTicket(): string {
  return randomBytes(TICKET_BYTES).toString('base64url');
}

/** What is stored of a ticket (never the ticket itself): its SHA-256, hex. */
export function ticketHash(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/** Whether a string can be a ticket at all (anything else is refused without a database round trip). */
export function isTicketShaped(ticket: string): boolean {
  return TICKET_PATTERN.test(ticket);
}
