import { addProjectionBackfills, dropProjectionBackfills } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * auth.projection_backfills: which projections were backfilled from the owning area's snapshot
 * (the currency rates projection, added after tenants first set their rates in the decision area).
 */
export class AuthProjectionBackfills1766400000000 implements MigrationInterface {
  name = 'AuthProjectionBackfills1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await addProjectionBackfills(q, 'auth');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropProjectionBackfills(q, 'auth');
  }
}
