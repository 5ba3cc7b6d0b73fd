import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { asAppRole } from '@ddm/platform';

export { asAppRole };

/** Repository root (tools run from dist/tools/...). */
export const ROOT = resolve(__dirname, existsSync(resolve(__dirname, '../../package.json')) ? '../..' : '../../..');
export const DATA_DIR = join(ROOT, '.data');
export const DEV_KEYS_DIR = process.env.DEV_KEYS_DIR || join(DATA_DIR, 'dev-keys');
export const RUNTIME_FILE = join(DATA_DIR, 'runtime.json');

export interface Runtime {
  /** The schema owner's (migrations, seeds' checks). */
  databaseUrl: string;
  /** The services' own role: row-level security applies to it. */
  appDatabaseUrl: string;
  natsUrl: string;
  natsNamespace: string;
}

/**
 * Where Postgres and NATS are: the environment, else what `npm start` chose (written to
 * .data/runtime.json), else the local defaults.
 */
export function runtime(): Runtime {
  const saved: Partial<Runtime> = existsSync(RUNTIME_FILE) ? JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) : {};
  const databaseUrl = process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL || saved.databaseUrl || 'postgres://postgres@127.0.0.1:5432/ddm';
  return {
    databaseUrl,
    appDatabaseUrl: (process.env.MIGRATION_DATABASE_URL && process.env.DATABASE_URL) || saved.appDatabaseUrl || asAppRole(databaseUrl),
    natsUrl: process.env.NATS_URL || saved.natsUrl || 'nats://127.0.0.1:4222',
    natsNamespace: process.env.NATS_NAMESPACE ?? saved.natsNamespace ?? '',
  };
}
