import { DigestFacts, digestMail, expiringNotification } from './sweep.rules';

const RECIPIENT = '0190c0de-0000-7000-8000-000000000003';
const POSITION = '0190c0de-0000-7000-8000-000000000004';

describe('the expiring-delegation warning', () => {
  const d = { delegationId: 'd', delegationDisplayId: '10009', recipientUserId: RECIPIENT, recipientPositionId: null, expirationDate: '2026-02-01T10:00:00.000Z' };

  it('the recipient or the position, the date as a day, once per delegation and expiration date', () => {
    expect(expiringNotification(d)).toMatchObject({ templateKey: 'DELEGATION_EXPIRING', userIds: [RECIPIENT], placeholders: { delegationDisplayId: '10009', expirationDate: '2026-02-01' }, sourceKey: 'expiring:d:2026-02-01T10:00:00.000Z' });
    expect(expiringNotification({ ...d, recipientUserId: null, recipientPositionId: POSITION })).toMatchObject({ userIds: [], positionIds: [POSITION] });
    expect(expiringNotification({ ...d, recipientUserId: null })).toBeNull();
  });

  it('a person named wins over the position; without a display id the delegation id is shown; it links to the delegation', () => {
    expect(expiringNotification({ ...d, recipientPositionId: POSITION })).toMatchObject({ userIds: [RECIPIENT], positionIds: [] });
    expect(expiringNotification({ ...d, delegationDisplayId: null })?.placeholders.delegationDisplayId).toBe('d');
    expect(expiringNotification(d)).toMatchObject({ entityType: 'delegation', entityId: 'd', path: '/delegations/d' });
    // A new expiration date is a new warning.
    expect(expiringNotification({ ...d, expirationDate: '2026-02-08T10:00:00.000Z' })?.sourceKey).toBe('expiring:d:2026-02-08T10:00:00.000Z');
  });
});

describe('the digest mail', () => {
  const item = (n: number, actionUrl: string | null = `/delegations/${n}`) => ({ title: `Delegation ${n} issued to you`, actionUrl });
  const facts = (over: Partial<DigestFacts> = {}): DigestFacts => ({
    email: 'ann@demo.test',
    name: 'Ann',
    period: 'daily',
    unread: 2,
    items: [item(1), item(2)],
    appUrl: 'http://localhost:8080',
    ...over,
  });

  it('to the person, the period and the count in the subject; "notification" for one, "notifications" from two', () => {
    const two = digestMail(facts());
    expect(two.to).toBe('ann@demo.test');
    expect(two.subject).toBe('Your daily digest: You have 2 unread notifications.');
    const one = digestMail(facts({ unread: 1, items: [item(1)], period: 'weekly' }));
    expect(one.subject).toBe('Your weekly digest: You have 1 unread notification.');
    expect(one.text).toContain('You get this weekly digest');
  });

  it('"...and N more" only when more are unread than listed', () => {
    const all = digestMail(facts({ unread: 2 }));
    expect(all.text).not.toContain('more.');
    expect(all.html).not.toContain('more.');
    const oneMore = digestMail(facts({ unread: 3 }));
    expect(oneMore.text).toContain('...and 1 more.');
    expect(oneMore.html).toContain('<p>...and 1 more.</p>');
  });

  it("links: the app's paths made absolute, http/https URLs as they are, none without one", () => {
    const m = digestMail(facts({ items: [item(1), { title: 'Elsewhere', actionUrl: 'https://other.example.com/x' }, { title: 'Plain', actionUrl: null }], unread: 3 }));
    expect(m.text).toContain('- Delegation 1 issued to you\n  http://localhost:8080/delegations/1');
    expect(m.text).toContain('- Elsewhere\n  https://other.example.com/x');
    expect(m.text).toContain('- Plain\n\nSee them all: http://localhost:8080/notifications');
    expect(m.html).toContain('<li><a href="http://localhost:8080/delegations/1">Delegation 1 issued to you</a></li>');
    expect(m.html).toContain('<li>Plain</li>');
  });

  it('greets by name or not at all; the HTML escapes what the text keeps', () => {
    expect(digestMail(facts()).text.startsWith('Hello Ann,\n')).toBe(true);
    expect(digestMail(facts({ name: null })).text.startsWith('Hello,\n')).toBe(true);
    const m = digestMail(facts({ name: '<Ann & Bo>', items: [{ title: 'Delegation <77> issued to you', actionUrl: '/delegations/"77"' }], unread: 1 }));
    expect(m.text).toContain('Hello <Ann & Bo>,');
    expect(m.text).toContain('- Delegation <77> issued to you');
    expect(m.html).toContain('<p>Hello &lt;Ann &amp; Bo&gt;,</p>');
    expect(m.html).toContain('<a href="http://localhost:8080/delegations/&quot;77&quot;">Delegation &lt;77&gt; issued to you</a>');
  });
});
