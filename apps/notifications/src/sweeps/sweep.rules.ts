/** Pure rules of the sweeps: the warning of a delegation expiring soon, and the digest mail of a person's unread notifications (text and HTML). */
import type { OutgoingMail } from '@ddm/platform';
import { EventNotification, uniq } from '../core/event-notification';
import { escapeHtml } from '../core/template.rules';

/** A live delegation expiring within 7 days, as the delegation projection holds it. */
export interface ExpiringDelegation {
  delegationId: string;
  delegationDisplayId: string | null;
  recipientUserId: string | null;
  recipientPositionId: string | null;
  /** ISO 8601. */
  expirationDate: string;
}

/** DELEGATION_EXPIRING warns the recipient (or the position's holders), once per delegation and expiration date. */
export function expiringNotification(d: ExpiringDelegation): EventNotification | null {
  const who = d.recipientUserId ? { userIds: [d.recipientUserId], positionIds: [] } : { userIds: [], positionIds: uniq([d.recipientPositionId]) };
  if (!who.userIds.length && !who.positionIds.length) return null;
  return {
    templateKey: 'DELEGATION_EXPIRING',
    ...who,
    placeholders: { delegationDisplayId: d.delegationDisplayId ?? d.delegationId, expirationDate: d.expirationDate.slice(0, 10) },
    entityType: 'delegation',
    entityId: d.delegationId,
    path: `/delegations/${d.delegationId}`,
    sourceKey: `expiring:${d.delegationId}:${d.expirationDate}`,
  };
}

export interface DigestFacts {
  email: string;
  name: string | null;
  period: string;
  unread: number;
  items: { title: string; actionUrl: string | null }[];
  appUrl: string;
}

/** A link a mail may carry: the app's own paths made absolute; http/https URLs as they are. */
function absolute(appUrl: string, url: string | null): string | null {
  if (!url) return null;
  return url.startsWith('/') ? `${appUrl}${url}` : url;
}

export function digestMail(f: DigestFacts): OutgoingMail {
  const hello = f.name ? `Hello ${f.name},` : 'Hello,';
  const line = `You have ${f.unread} unread notification${f.unread === 1 ? '' : 's'}.`;
  const items = f.items.map((i) => ({ title: i.title, link: absolute(f.appUrl, i.actionUrl) }));
  const more = f.unread > items.length ? f.unread - items.length : 0;
  const text =
    `${hello}\n\n${line}\n\n` +
    items.map((i) => `- ${i.title}${i.link ? `\n  ${i.link}` : ''}`).join('\n') +
    (more ? `\n\n...and ${more} more.` : '') +
    `\n\nSee them all: ${f.appUrl}/notifications\nYou get this ${f.period} digest because you chose it in your notification preferences.\n`;
  const html =
    `<p>${escapeHtml(hello)}</p><p>${escapeHtml(line)}</p><ul>` +
    items.map((i) => `<li>${i.link ? `<a href="${escapeHtml(i.link)}">${escapeHtml(i.title)}</a>` : escapeHtml(i.title)}</li>`).join('') +
    `</ul>${more ? `<p>...and ${more} more.</p>` : ''}<p><a href="${escapeHtml(`${f.appUrl}/notifications`)}">See them all</a></p>` +
    `<p>You get this ${escapeHtml(f.period)} digest because you chose it in your notification preferences.</p>`;
  return { to: f.email, subject: `Your ${f.period} digest: ${line}`, text, html };
}
