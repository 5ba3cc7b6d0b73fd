import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, MailService, loadMailOptions } from '@ddm/platform';
import pino from 'pino';
import { invitationMail, signInLink } from './invitation.mail';

describe('mail', () => {
  describe('configuration', () => {
    it('defaults to the development outbox, no-reply sender and the local app', async () => {
      const o = loadMailOptions({});
      expect(o).toMatchObject({ smtpUrl: null, from: 'no-reply@ddm.local', appUrl: 'http://localhost:8080' });
      expect(o.dir).toMatch(/\.data\/mail$/);
    });

    it.each([
      [{ SMTP_URL: 'http://mail.example' }, /SMTP_URL/],
      [{ SMTP_URL: 'not a url' }, /SMTP_URL/],
      [{ MAIL_FROM: 'nobody' }, /MAIL_FROM/],
      [{ APP_URL: 'ftp://x' }, /APP_URL/],
      [{ SMTP_TIMEOUT_MS: '0' }, /SMTP_TIMEOUT_MS/],
    ])('stops with a message naming the variable for %j', async (env, name) => {
      expect(() => loadMailOptions(env)).toThrow(ConfigError);
      expect(() => loadMailOptions(env)).toThrow(name);
    });

    it('accepts smtp and smtps URLs and a named sender', async () => {
      expect(loadMailOptions({ SMTP_URL: 'smtps://u:p@mail.example:465', MAIL_FROM: 'DDM <no-reply@example.com>', APP_URL: 'https://app.example/' })).toMatchObject({
        smtpUrl: 'smtps://u:p@mail.example:465',
        from: 'DDM <no-reply@example.com>',
        appUrl: 'https://app.example',
      });
    });
  });

  it('builds the invitation with a sign-in link naming the tenant and the address', async () => {
    const mail = invitationMail({ email: 'new+one@x.test', firstName: 'Nia', tenantId: 'T1', tenantName: 'Acme <Ltd>', inviterName: 'Ada', appUrl: 'http://app' });
    expect(mail.to).toBe('new+one@x.test');
    expect(mail.subject).toBe('You are invited to Acme <Ltd>');
    expect(mail.text).toContain('http://app/signin?tenant=T1&email=new%2Bone%40x.test');
    expect(mail.html).toContain('Acme &lt;Ltd&gt;');
    expect(signInLink('http://app', 'T1', 'a@b')).toBe('http://app/signin?tenant=T1&email=a%40b');
  });

  it('without SMTP_URL writes each message as an .eml file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddm-mail-'));
    const service = new MailService({ ...loadMailOptions({}), dir }, pino({ level: 'silent' }));
    try {
      const outcomes = await service.sendAll([
        { to: 'one@x.test', subject: 'S1', text: 'hello one', html: '<p>one</p>' },
        { to: 'two@x.test', subject: 'S2', text: 'hello two', html: '<p>two</p>' },
      ]);
      expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
      const files = readdirSync(dir).sort();
      expect(files).toHaveLength(2);
      expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
      const one = readFileSync(outcomes[0].file as string, 'utf8');
      expect(one).toMatch(/^To: one@x\.test$/m);
      expect(one).toMatch(/^From: no-reply@ddm\.local$/m);
      expect(one).toContain('hello one');
    } finally {
      service.onModuleDestroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
