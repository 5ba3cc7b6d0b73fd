/**
 * npm run token -- <email or user id> [--tenant <tenantId>] [--ttl <duration>]
 * Prints a JWT for that user, signed by the local dev key (.data/dev-keys/private.pem).
 */
import { Client } from 'pg';
import { DEV_KEYS_DIR, runtime } from './lib/runtime';
import { signDevToken } from './lib/sign';
import { ensureDevKeys } from '@ddm/platform';

function usage(msg?: string): never {
  if (msg) process.stderr.write(`${msg}\n`);
  process.stderr.write('usage: npm run token -- <user email or id> [--tenant <tenantId>] [--ttl <duration, e.g. 1h, 30m, 3600>]\n');
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  let who: string | undefined;
  let tenant: string | undefined;
  let ttl: string | number = '1h';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--tenant') tenant = args[++i] ?? usage('--tenant needs a value');
    else if (args[i] === '--ttl') {
      const v = args[++i] ?? usage('--ttl needs a value');
      ttl = /^\d+$/.test(v) ? Number(v) : v;
      if (typeof ttl === 'string' && !/^\d+\s*[smhd]$/.test(ttl)) usage(`--ttl "${v}" is not a duration (like 90s, 30m, 12h, 7d)`);
    } else if (args[i].startsWith('--')) usage(`unknown option ${args[i]}`);
    else who = args[i];
  }
  if (!who) usage();
  // The key pair exists after the first call, even when the user lookup below fails (docker compose mounts it).
  ensureDevKeys(DEV_KEYS_DIR);
  const { databaseUrl } = await runtime({ nats: false });
  const db = new Client({ connectionString: databaseUrl });
  try {
    await db.connect();
  } catch (err) {
    process.stderr.write(`cannot reach Postgres at ${databaseUrl}: ${(err as Error).message}\nStart the system first (npm start) or set DATABASE_URL.\n`);
    process.exit(1);
  }
  try {
    const byId = /^[0-9a-f-]{36}$/i.test(who);
    const { rows } = await db.query(
      `SELECT id, email, name, idp_user_id FROM auth.users WHERE ${byId ? 'id = $1::uuid' : 'lower(email) = lower($1)'}`,
      [who],
    );
    if (!rows.length) {
      process.stderr.write(`no user ${who}; run "npm run seed" first, or check the email\n`);
      process.exit(1);
    }
    const u = rows[0];
    const token = signDevToken({ sub: u.idp_user_id ?? `dev|${u.email}`, email: u.email, name: u.name ?? undefined, tid: tenant }, DEV_KEYS_DIR, ttl);
    process.stdout.write(token + '\n');
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') {
      process.stderr.write('the auth schema does not exist yet: start the system once (npm start)\n');
      process.exit(1);
    }
    throw err;
  } finally {
    await db.end();
  }
}

void main();
