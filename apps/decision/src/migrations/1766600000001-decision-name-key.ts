import { MigrationInterface, QueryRunner } from 'typeorm';
import { auditTables, unauditTable } from '@ddm/platform';

/**
 * A decision's name as compared: `name_key`, lower(name), stored. Under row-level security the
 * planner may not use a condition built on a function that is not leakproof (lower) before the
 * policy's, so `lower(d.name) = $name` could not probe the unique name index and each lookup read
 * the tenant's decisions (a bulk duplicate's free-name check: 150 ms a batch at 100,000). Text
 * equality on a column is leakproof: `d.name_key = $name` probes the unique index, which now
 * holds the column (the same rule: one live decision per name, case-insensitive, per tenant).
 * The trail's trigger is made again so the derived column stays out of the entries.
 */
export class DecisionNameKey1766600000001 implements MigrationInterface {
  name = 'DecisionNameKey1766600000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decision.decisions ADD COLUMN name_key text GENERATED ALWAYS AS (lower(name)) STORED`);
    await q.query(`DROP INDEX decision.decisions_name_unique`);
    await q.query(`CREATE UNIQUE INDEX decisions_name_unique ON decision.decisions (tenant_id, name_key) WHERE NOT is_deleted`);
    await unauditTable(q, 'decision', 'decisions');
    await auditTables(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX decision.decisions_name_unique`);
    await q.query(`CREATE UNIQUE INDEX decisions_name_unique ON decision.decisions (tenant_id, lower(name)) WHERE NOT is_deleted`);
    await q.query(`ALTER TABLE decision.decisions DROP COLUMN name_key`);
    await unauditTable(q, 'decision', 'decisions');
    await auditTables(q, 'decision');
  }
}
