import { OutgoingMail } from '@ddm/platform';

export interface InvitationFacts {
  email: string;
  firstName: string | null;
  tenantId: string;
  tenantName: string;
  inviterName: string;
  appUrl: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The sign-in link of an invitation: the app opens the tenant's sign-in with the address filled in. */
export function signInLink(appUrl: string, tenantId: string, email: string): string {
  return `${appUrl}/signin?tenant=${encodeURIComponent(tenantId)}&email=${encodeURIComponent(email)}`;
}

export function invitationMail(f: InvitationFacts): OutgoingMail {
  const link = signInLink(f.appUrl, f.tenantId, f.email);
  const hello = f.firstName ? `Hello ${f.firstName},` : 'Hello,';
  const line = `${f.inviterName} invited you to ${f.tenantName} in Decision and Delegation Management.`;
  return {
    to: f.email,
    subject: `You are invited to ${f.tenantName}`,
    text: `${hello}\n\n${line}\n\nSign in here to accept the invitation:\n${link}\n\nIf you did not expect this invitation, you can ignore this message.\n`,
    html:
      `<p>${escapeHtml(hello)}</p><p>${escapeHtml(line)}</p>` +
      `<p><a href="${escapeHtml(link)}">Sign in to accept the invitation</a></p>` +
      `<p>If you did not expect this invitation, you can ignore this message.</p>`,
  };
}
