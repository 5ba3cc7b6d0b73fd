import { MigrationInterface, QueryRunner } from 'typeorm';
import { TENANT_SETTING } from '@ddm/platform';

const TENANT = `nullif(current_setting('${TENANT_SETTING}', true), '')::uuid`;

/**
 * The delegations' search (the decision's name, any case, or the display id contains the term)
 * through trigram indexes under row-level security. `lower(d.name) LIKE` and `LIKE` on the display
 * id are not leakproof, so under the policy they could only filter: a search read every delegation
 * of the tenant with its decision. `decision.delegations_matching(pattern)` answers the matching
 * delegations whole: the decisions whose name_key matches (trigram index), their delegations (by
 * decision), and the delegations whose display id matches (trigram index). It runs as its definer
 * and takes the tenant only from the request's context, as every search function does (search.ts in
 * libs/platform); only the app role may run it.
 */
export class DecisionDelegationsSearch1766600000002 implements MigrationInterface {
  name = 'DecisionDelegationsSearch1766600000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX decisions_name_search ON decision.decisions USING gin (name_key gin_trgm_ops)`);
    await q.query(`CREATE INDEX delegations_display_id_search ON decision.delegations USING gin (delegation_display_id gin_trgm_ops)`);
    await q.query(`
      CREATE FUNCTION decision.delegations_matching(pattern text) RETURNS SETOF decision.delegations
        LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path = pg_catalog, pg_temp AS $fn$
        SELECT g.* FROM decision.delegations g
         WHERE g.tenant_id = ${TENANT}
           AND g.id IN (SELECT n.id FROM decision.decisions d JOIN decision.delegations n ON n.tenant_id = d.tenant_id AND n.decision_id = d.id
                         WHERE d.tenant_id = ${TENANT} AND d.name_key LIKE pattern
                        UNION
                        SELECT n.id FROM decision.delegations n WHERE n.tenant_id = ${TENANT} AND n.delegation_display_id LIKE pattern)
      $fn$`);
    await q.query(`REVOKE ALL ON FUNCTION decision.delegations_matching(text) FROM PUBLIC`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION decision.delegations_matching(text)`);
    await q.query(`DROP INDEX decision.delegations_display_id_search`);
    await q.query(`DROP INDEX decision.decisions_name_search`);
  }
}
