import { Client } from 'pg';
import { ADMIN_DATABASE_URL, asAppRole, randomName, withDatabase } from './env';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/**
 * A fresh database for one test file, copied from the template that jest's global setup
 * migrated once (every service schema), so files run in parallel and in any order.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = process.env.DDM_TEMPLATE_DB;
  if (!template) throw new Error('DDM_TEMPLATE_DB is not set: run the tests through jest (global setup)');
  return createDatabase(template);
}

/**
 * A database with nothing in it, for specs that migrate from scratch: no schema and no extension
 * (copied from template0, since template1 may have extensions added on some servers).
 */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  return createDatabase('template0');
}

async function createDatabase(template: string): Promise<TestDatabase> {
  // The creation time in the name lets a later run tell a leftover from a database in use.
  const name = randomName(`ddm_t_${Math.floor(Date.now() / 1000)}_`);
  await admin(async (c) => {
    // CREATE DATABASE ... TEMPLATE needs the template to be idle for a moment; retry briefly if another file is copying it.
    for (let attempt = 0; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (err) {
        if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  return {
    name,
    url: withDatabase(ADMIN_DATABASE_URL, name),
    drop: () => admin(async (c) => void (await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}

/** A test database (createTestDatabase) with a connection as its owner (who migrates) and one as the services' app role (row-level security applies). */
export interface TestDatabaseAsRoles {
  db: TestDatabase;
  owner: Client;
  app: Client;
  /** Ends both connections and drops the database. */
  close(): Promise<void>;
}

export async function createTestDatabaseAsRoles(): Promise<TestDatabaseAsRoles> {
  const db = await createTestDatabase();
  const owner = new Client({ connectionString: db.url });
  await owner.connect();
  const app = new Client({ connectionString: asAppRole(db.url) });
  await app.connect();
  return {
    db,
    owner,
    app,
    close: async () => {
      await app.end();
      await owner.end();
      await db.drop();
    },
  };
}
