import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Text search that uses its trigram index under row-level security. A policy's condition is a
 * security barrier: the planner may not evaluate a user's condition built on an operator that is
 * not leakproof (LIKE) before it, so `search_text LIKE '%…%'` could not be an index condition and
 * each search read the tenant's rows one by one (a tenth of the bare SQL's speed at 100,000).
 *
 * `decision.decisions_matching(pattern)` answers the ids of the live decisions of the request's
 * tenant whose search text matches: it runs as its definer, the schema's owner, whom the
 * cross_tenant policy admits (so no barrier stands before the index), and takes the tenant only
 * from the request's context (`app.tenant_id`, the setting the policy reads), never from its
 * caller: it is exactly as isolated as the policy. Only the services' app role may run it
 * (grantAppRole grants EXECUTE); nobody else with a connection can probe the search text.
 */
export class DecisionSearchUnderRls1766400000000 implements MigrationInterface {
  name = 'DecisionSearchUnderRls1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION decision.decisions_matching(pattern text) RETURNS SETOF uuid
        LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path = pg_catalog, pg_temp AS $fn$
        SELECT d.id FROM decision.decisions d
         WHERE d.tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid AND NOT d.is_deleted AND d.search_text LIKE pattern
      $fn$`);
    await q.query(`REVOKE ALL ON FUNCTION decision.decisions_matching(text) FROM PUBLIC`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION decision.decisions_matching(text)`);
  }
}
