import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

/** Repository root (libs/testing/src -> ../../..; also from dist/libs/testing/src). */
export const ROOT = resolve(__dirname, __dirname.includes(`${'/'}dist${'/'}`) ? '../../../..' : '../../..');
export const TEST_KEYS_DIR = join(ROOT, '.data', 'test-keys');

/*
 * The Postgres server the test databases go to, and NATS. Jest's global setup
 * (tools/jest/global-setup.js) finds or starts both before any test file runs and sets
 * TEST_DATABASE_URL and NATS_URL to what it chose (an embedded PostgreSQL or a spawned nats-server
 * when there is no local one); jest's workers inherit that environment, so these constants, read
 * when a test file loads the kit, name this run's servers. The defaults serve code run outside jest.
 */
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

/** The services' own role in tests (row-level security applies to it): libs/platform's. */
export { LOCAL_APP_ROLE as APP_ROLE, asAppRole } from '@ddm/platform';
