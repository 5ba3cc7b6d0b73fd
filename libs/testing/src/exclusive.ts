import { Client } from 'pg';
import { ADMIN_DATABASE_URL } from './env';

/**
 * Waits until no other test file holds `name`, then holds it until the answered release is called
 * (a Postgres advisory lock on the shared server, held by a connection of its own; it ends with the
 * process too). For the few specs that load the machine so much that two at once would starve each
 * other on two cores (the outage specs: a system of their own under 50 requests a second).
 */
export async function exclusive(name: string): Promise<() => Promise<void>> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    await c.query('SELECT pg_advisory_lock(hashtext($1))', [`ddm:exclusive:${name}`]);
  } catch (err) {
    await c.end();
    throw err;
  }
  return async () => {
    await c.query('SELECT pg_advisory_unlock(hashtext($1))', [`ddm:exclusive:${name}`]).catch(() => undefined);
    await c.end();
  };
}
