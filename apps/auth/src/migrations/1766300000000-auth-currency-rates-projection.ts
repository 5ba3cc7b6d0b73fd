import { isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * auth.currency_rate_projection: the currencies that have a rate in the decision area (one row per
 * tenant, fed by evt.decision.currency-rates.replaced), behind GET /auth/v1/user/tenant/{id}/currencies.
 * `id` is the tenant's id (the projection's key column), `tenant_id` the same, as on every tenant table.
 */
export class AuthCurrencyRatesProjection1766300000000 implements MigrationInterface {
  name = 'AuthCurrencyRatesProjection1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth.currency_rate_projection (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL CHECK (tenant_id = id),
        currencies varchar(3)[] NOT NULL,
        version bigint,
        updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await isolateTenantTables(q, 'auth');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE auth.currency_rate_projection`);
  }
}
