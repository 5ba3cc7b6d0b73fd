import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Repository root (tools run from dist/tools/...). */
export const ROOT = resolve(__dirname, existsSync(resolve(__dirname, '../../package.json')) ? '../..' : '../../..');
export const DATA_DIR = join(ROOT, '.data');
export const DEV_KEYS_DIR = process.env.DEV_KEYS_DIR || join(DATA_DIR, 'dev-keys');
export const RUNTIME_FILE = join(DATA_DIR, 'runtime.json');

export interface Runtime {
  databaseUrl: string;
  natsUrl: string;
  natsNamespace: string;
}

/**
 * Where Postgres and NATS are: the environment, else what `npm start` chose (written to
 * .data/runtime.json), else the local defaults.
 */
export function runtime(): Runtime {
  const saved: Partial<Runtime> = existsSync(RUNTIME_FILE) ? JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) : {};
  return {
    databaseUrl: process.env.DATABASE_URL || saved.databaseUrl || 'postgres://postgres@127.0.0.1:5432/ddm',
    natsUrl: process.env.NATS_URL || saved.natsUrl || 'nats://127.0.0.1:4222',
    natsNamespace: process.env.NATS_NAMESPACE ?? saved.natsNamespace ?? '',
  };
}
