import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { LOGGER } from './platform.module';
import { Transporter, createTransport } from 'nodemailer';
import { Logger } from 'pino';
import { MAIL_OPTIONS, MailOptions } from './mail.config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailOutcome {
  ok: boolean;
  messageId?: string;
  /** Why the message was not accepted (the SMTP server's answer, shortened). */
  error?: string;
  /** Development outbox: the .eml file written. */
  file?: string;
}

/** How many messages are in flight at once (also the SMTP pool's connections). */
const CONCURRENCY = 5;

/**
 * Sends email: through SMTP when SMTP_URL is set (a pooled nodemailer transport), otherwise into
 * `.data/mail/` as .eml files (development). Never throws for one message: each send answers its
 * own outcome, so one refused recipient does not stop the others.
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly transport: Transporter;

  constructor(
    @Inject(MAIL_OPTIONS) readonly options: MailOptions,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.transport = options.smtpUrl
      ? createTransport({
          url: options.smtpUrl,
          pool: true,
          maxConnections: CONCURRENCY,
          connectionTimeout: options.timeoutMs,
          greetingTimeout: options.timeoutMs,
          socketTimeout: options.timeoutMs,
        })
      : createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: OutgoingMail): Promise<MailOutcome> {
    try {
      const info = await this.transport.sendMail({ from: this.options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      const rejected = (info as { rejected?: unknown[] }).rejected ?? [];
      if (rejected.length) return { ok: false, error: `Recipient refused by the mail server: ${rejected.join(', ')}` };
      if (!this.options.smtpUrl) return { ok: true, messageId: info.messageId, file: await this.writeEml(mail.to, (info as { message: Buffer }).message) };
      return { ok: true, messageId: info.messageId };
    } catch (err) {
      const error = describe(err);
      this.log.warn({ to: mail.to, err: error }, 'mail not sent');
      return { ok: false, error };
    }
  }

  /** Sends each message (a few at a time); the outcomes are in the order of `mails`. */
  async sendAll(mails: OutgoingMail[]): Promise<MailOutcome[]> {
    const out: MailOutcome[] = new Array(mails.length);
    let next = 0;
    const worker = async () => {
      while (next < mails.length) {
        const i = next++;
        out[i] = await this.send(mails[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, mails.length) }, worker));
    return out;
  }

  onModuleDestroy(): void {
    this.transport.close();
  }

  private async writeEml(to: string, message: Buffer): Promise<string> {
    await mkdir(this.options.dir, { recursive: true });
    const safe = to.replace(/[^A-Za-z0-9._@-]/g, '_').slice(0, 100);
    const file = join(this.options.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safe}-${randomBytes(3).toString('hex')}.eml`);
    await writeFile(file, message);
    return file;
  }
}

/** The mail server's answer without stack or internals, at most 300 characters. */
function describe(err: unknown): string {
  const e = err as { response?: unknown; message?: unknown; code?: unknown };
  const text = typeof e?.response === 'string' ? e.response : typeof e?.message === 'string' ? e.message : String(err);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300) || 'Mail could not be sent';
}
