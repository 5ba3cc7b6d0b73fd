import { resolve } from 'node:path';
import { ConfigError, Env, envAppUrl, envInt, envUrl } from './config';

export interface MailOptions {
  /** SMTP server (smtp:// or smtps://, credentials in the URL); unset = write .eml files to `dir`. */
  smtpUrl: string | null;
  /** Sender of every message. */
  from: string;
  /** The app's public address (APP_URL): where links in mails point. */
  appUrl: string;
  /** Development outbox: one .eml file per message when no SMTP server is configured. */
  dir: string;
  /** Longest wait for the SMTP server's connection, greeting and each reply. */
  timeoutMs: number;
}

export const MAIL_OPTIONS = Symbol('MAIL_OPTIONS');

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

/** Reads and checks the mail settings; a wrong value stops the service with a message naming the variable. */
export function loadMailOptions(env: Env): MailOptions {
  const smtpUrl = env.SMTP_URL ? envUrl(env, 'SMTP_URL', ['smtp', 'smtps']) : null;
  const from = env.MAIL_FROM || 'no-reply@ddm.local';
  const bare = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
  if (from.length > 320 || !ADDRESS.test(bare.trim())) throw new ConfigError(`MAIL_FROM must be an email address, optionally "Name <address>" (got "${from}")`);
  const appUrl = envAppUrl(env);
  return {
    smtpUrl,
    from,
    appUrl,
    dir: resolve(env.MAIL_DIR || '.data/mail'),
    timeoutMs: envInt(env, 'SMTP_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}
