import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The users list (one shared list builder) orders by plain expressions, each ASC or DESC. Users
 * who never signed in come last both ways: going up, NULL sorts last by itself (index
 * tenant_users_login_sort); going down, the list orders by the sign-in read as -infinity, which
 * this index serves instead of the one on `last_login_date DESC NULLS LAST`.
 */
export class AuthUsersLoginSort1764200000002 implements MigrationInterface {
  name = 'AuthUsersLoginSort1764200000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX auth.tenant_users_login_sort_desc`);
    await q.query(
      `CREATE INDEX tenant_users_login_sort_desc ON auth.tenant_users (tenant_id, coalesce(last_login_date, '-infinity'::timestamptz) DESC, user_id DESC) WHERE NOT is_deleted`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX auth.tenant_users_login_sort_desc`);
    await q.query(
      `CREATE INDEX tenant_users_login_sort_desc ON auth.tenant_users (tenant_id, last_login_date DESC NULLS LAST, user_id DESC) WHERE NOT is_deleted`,
    );
  }
}
