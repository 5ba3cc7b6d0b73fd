/**
 * The rules of invitations that need no database: which items of a request fail before anything
 * is written, the HTTP error of a single invitation, and what bulk-invite and bulk-resend-invite
 * answer for each item. Pure; unit-tested in invitations.spec.ts.
 */
import { AppError, ErrorCode } from '@ddm/contracts';
import { KnownRefs, LinkProblem, linkProblem } from '../core/user-fields.rules';

export const MESSAGES = {
  invited: 'User invited and the invitation email sent',
  invitedNoEmail: 'User invited (no email requested)',
  resent: 'Invitation email sent',
  emailExists: 'Email already exists',
  repeated: 'Email appears more than once in this request',
  otherTenant: 'tenantId must be the tenant of the request',
  accepted: 'User has already accepted the invitation',
} as const;

/** Why one invitation fails: a conflict (the email), another tenant named, or one of its links. */
export type InviteFailure = { kind: 'conflict' | 'invalid'; message: string; field?: string } | LinkProblem;

/** What an email's outcome says (sent, or why not). */
export interface MailResult {
  ok: boolean;
  error?: string;
}

/** Indexes of the entries whose email (case-insensitive) appeared earlier in the same request. */
export function repeatedEmails(emails: readonly string[]): Set<number> {
  const seen = new Set<string>();
  const repeated = new Set<number>();
  emails.forEach((e, i) => {
    const key = e.trim().toLowerCase();
    if (seen.has(key)) repeated.add(i);
    seen.add(key);
  });
  return repeated;
}

/**
 * Why one item of an invitation fails before anything is written (null: it goes ahead), the first
 * of: a tenant other than the request's, an email earlier in the same request, an email a member
 * of the tenant has, then its links (an id the tenant does not know, keys the caller does not hold).
 */
export function invitationProblem(
  item: Parameters<typeof linkProblem>[0] & { tenantId?: string },
  facts: { tenantId: string; repeated: boolean; taken: boolean; known: KnownRefs; callerKeys: ReadonlySet<string> },
): InviteFailure | null {
  if (item.tenantId && item.tenantId.toLowerCase() !== facts.tenantId) return { kind: 'invalid', field: 'tenantId', message: MESSAGES.otherTenant };
  if (facts.repeated) return { kind: 'conflict', message: MESSAGES.repeated };
  if (facts.taken) return { kind: 'conflict', message: MESSAGES.emailExists };
  return linkProblem(item, facts.known, facts.callerKeys);
}

/** The HTTP error of a single invitation (create): 409 email taken or repeated, 404 unknown id, 403 key not held, 400 another tenant (naming tenantId). */
export function invitationError(f: InviteFailure): AppError {
  const code = { conflict: ErrorCode.Conflict, not_found: ErrorCode.NotFound, forbidden: ErrorCode.Forbidden, invalid: ErrorCode.ValidationFailed }[f.kind];
  return new AppError(code, f.message, f.field ? [{ field: f.field, message: f.message }] : undefined);
}

/** What bulk-invite answers for one item: its failure, else whether its invitation email went (or was not asked for). */
export function invitedMessage(o: { failure?: { message: string }; mail?: MailResult }): string {
  if (o.failure) return o.failure.message;
  if (!o.mail) return MESSAGES.invitedNoEmail;
  return o.mail.ok ? MESSAGES.invited : `User invited, but the invitation email could not be sent: ${o.mail.error}`;
}

/**
 * Why the invitation of a user named by bulk-resend-invite is not sent again (null: it is): the
 * tenant has no such live member (another tenant's user is answered the same way: nothing about it
 * leaks), the user accepted already, or the user is neither invited nor active.
 */
export function resendRefusal(id: string, member: { email: string; status: string } | undefined): { email: string; success: false; message: string } | null {
  if (!member) return { email: '', success: false, message: `User ${id} not found in this tenant` };
  if (member.status === 'ACTIVE') return { email: member.email, success: false, message: MESSAGES.accepted };
  if (member.status !== 'INVITED') return { email: member.email, success: false, message: `User is ${member.status}; only invited users can be sent an invitation` };
  return null;
}

/** What bulk-resend-invite answers for an invitation sent again. */
export function resentMessage(m: MailResult): string {
  return m.ok ? MESSAGES.resent : `Invitation email could not be sent: ${m.error}`;
}
