import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

/** Repository root (libs/testing/src -> ../../..; also from dist/libs/testing/src). */
export const ROOT = resolve(__dirname, __dirname.includes(`${'/'}dist${'/'}`) ? '../../../..' : '../../..');
export const TEST_KEYS_DIR = join(ROOT, '.data', 'test-keys');

export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

export function randomName(prefix: string): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

/** A database URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
