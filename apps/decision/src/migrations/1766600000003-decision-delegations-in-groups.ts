import { MigrationInterface, QueryRunner } from 'typeorm';
import { TENANT_SETTING } from '@ddm/platform';

/**
 * `group_ids && $groups` through its GIN index under row-level security. `&&` (arrayoverlap) is not
 * leakproof, so under the policy it could only filter: a delegation list filtered by groups, and
 * the invalidation of a changed group (touchedTrees), read every delegation of the tenant.
 * `decision.delegations_in_groups(groups)` answers the ids of the tenant's delegations scoped to
 * one of the groups, through `delegations_by_group`; as every search function, it runs as its
 * definer, takes the tenant only from the request's context, and only the app role may run it.
 */
export class DecisionDelegationsInGroups1766600000003 implements MigrationInterface {
  name = 'DecisionDelegationsInGroups1766600000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION decision.delegations_in_groups(groups uuid[]) RETURNS SETOF uuid
        LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path = pg_catalog, pg_temp AS $fn$
        SELECT g.id FROM decision.delegations g
         WHERE g.tenant_id = nullif(current_setting('${TENANT_SETTING}', true), '')::uuid AND g.group_ids && groups
      $fn$`);
    await q.query(`REVOKE ALL ON FUNCTION decision.delegations_in_groups(uuid[]) FROM PUBLIC`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION decision.delegations_in_groups(uuid[])`);
  }
}
