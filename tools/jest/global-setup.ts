/**
 * Runs once before the test files (called by tools/jest/global-setup.js with the Postgres it
 * found or started): migrates every service schema into a template database (named after a hash
 * of the migrations, so it is rebuilt only when they change). Each test file then copies it with
 * CREATE DATABASE ... TEMPLATE, which takes a fraction of a second.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDataSource, ensureDevKeys, runMigrations } from '@ddm/platform';
import { ROOT, TEST_KEYS_DIR, asAppRole, withDatabase } from '@ddm/testing';
import { ALL_DATA_SOURCES } from '../migrate-sources';

const SOURCES = ALL_DATA_SOURCES;

function migrationsHash(): string {
  const h = createHash('sha256');
  // The platform code the migrations call (tables, policies, triggers, grants).
  for (const file of ['database.ts', 'tenancy.ts', 'audit.ts', 'jobs.ts', 'idempotency.ts']) h.update(readFileSync(join(ROOT, 'libs/platform/src', file)));
  for (const area of readdirSync(join(ROOT, 'apps')).sort()) {
    let files: string[] = [];
    try {
      files = readdirSync(join(ROOT, 'apps', area, 'src', 'migrations')).sort();
    } catch {
      continue;
    }
    for (const f of files) h.update(f).update(readFileSync(join(ROOT, 'apps', area, 'src', 'migrations', f)));
    // Which migrations run (and which extensions) is said in data-source.ts: registering a file changes the template too.
    h.update(readFileSync(join(ROOT, 'apps', area, 'src', 'data-source.ts')));
  }
  return h.digest('hex').slice(0, 12);
}

/** `adminUrl`: a database on the server where the template and the test databases go. */
export default async function globalSetup(adminUrl: string): Promise<void> {
  ensureDevKeys(TEST_KEYS_DIR);
  const prefix = `ddm_tpl_${migrationsHash()}_`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('ddm:test-template'))`);
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'ddm_tpl_%' OR datname LIKE 'ddm_t_%' OR datname LIKE 'ddm_build_%'`);
    const names = rows.map((r: { datname: string }) => r.datname);
    const template = names.find((name) => name.startsWith(prefix)) ?? `${prefix}${Date.now()}`;
    process.env.DDM_TEMPLATE_DB = template;
    // Leftovers of earlier runs (a killed run cannot drop its own). Test databases and templates carry
    // their creation time in the name; only those over two hours old go, so a run going on beside this
    // one (another checkout, other migrations) keeps its databases and its template. In-use ones are
    // kept anyway (DROP fails).
    const stale = (name: string) => {
      const m = /^ddm_t_(\d{10})_/.exec(name) ?? /^ddm_build_(\d{13})$/.exec(name) ?? /^ddm_tpl_[0-9a-f]{12}_(\d{13})$/.exec(name);
      if (!m) return name.startsWith('ddm_tpl_') || /^ddm_t_[0-9a-f]{10}$/.test(name);
      const created = m[1].length === 10 ? Number(m[1]) * 1000 : Number(m[1]);
      return Date.now() - created > 2 * 3600_000;
    };
    for (const name of names) {
      if (name === template || !stale(name)) continue;
      await admin.query(`DROP DATABASE IF EXISTS "${name}"`).catch(() => undefined);
    }
    // The schema owners tools/owner-role.e2e-spec.ts makes for its database, left by a killed run:
    // those whose database is gone.
    const { rows: owners } = await admin.query(
      `SELECT r.rolname FROM pg_roles r WHERE r.rolname LIKE 'ddm\\_owner\\_t\\_%' AND NOT EXISTS (SELECT 1 FROM pg_database d WHERE d.datdba = r.oid)`,
    );
    for (const { rolname } of owners as { rolname: string }[]) await admin.query(`DROP ROLE IF EXISTS "${rolname}"`).catch(() => undefined);
    if (!names.includes(template)) {
      const building = `ddm_build_${Date.now()}`;
      await admin.query(`CREATE DATABASE "${building}"`);
      for (const def of SOURCES) {
        const url = withDatabase(adminUrl, building);
        const ds = createDataSource(def, url, 2);
        await ds.initialize();
        try {
          // The app role's rights are in the template too (the test databases are its copies).
          await runMigrations(ds, def, undefined, asAppRole(url));
        } finally {
          await ds.destroy();
        }
      }
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    }
  } finally {
    await admin.query(`SELECT pg_advisory_unlock(hashtext('ddm:test-template'))`).catch(() => undefined);
    await admin.end();
  }
}
