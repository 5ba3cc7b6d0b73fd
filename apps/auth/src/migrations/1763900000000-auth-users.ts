import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users area complete: search and sort columns and indexes of the users list, the settings projections
 * (positions, groups) with the users' links to them, the decision area's delegation projection,
 * and the record of invitation emails.
 */
export class AuthUsers1763900000000 implements MigrationInterface {
  name = 'AuthUsers1763900000000';

  async up(q: QueryRunner): Promise<void> {
    // pg_trgm serves ILIKE '%term%' from a GIN index. Production: the extension must be allowed
    // (created once by a superuser, or listed in the managed service's allowed extensions).
    // pg_trgm: a database-wide object, created before the migrations (data-source `extensions`).

    // The users list filters, searches and sorts memberships of one tenant. What it searches and
    // sorts on lives on the person (auth.users), shared by every tenant of that person; a copy on
    // the membership lets one tenant's list use its own rows and indexes only, whatever the size
    // of the others. Triggers keep the copy exact, whichever code path writes.
    await q.query(`
      ALTER TABLE auth.tenant_users
        ADD COLUMN search_text text NOT NULL DEFAULT '',
        ADD COLUMN sort_name text,
        ADD COLUMN sort_email text,
        ADD COLUMN last_login_date timestamptz`);
    await q.query(`
      CREATE FUNCTION auth.person_search_text(name text, display_name text, email text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT coalesce(name, '') || E'\\n' || coalesce(display_name, '') || E'\\n' || coalesce(email, '') $$`);
    await q.query(`
      CREATE FUNCTION auth.tenant_users_copy_person() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT auth.person_search_text(u.name, u.display_name, u.email), lower(u.name), lower(u.email), u.last_login_date
          INTO NEW.search_text, NEW.sort_name, NEW.sort_email, NEW.last_login_date
          FROM auth.users u WHERE u.id = NEW.user_id;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER tenant_users_copy_person BEFORE INSERT OR UPDATE OF user_id ON auth.tenant_users
        FOR EACH ROW EXECUTE FUNCTION auth.tenant_users_copy_person()`);
    await q.query(`
      CREATE FUNCTION auth.users_copy_to_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE auth.tenant_users
           SET search_text = auth.person_search_text(NEW.name, NEW.display_name, NEW.email),
               sort_name = lower(NEW.name), sort_email = lower(NEW.email), last_login_date = NEW.last_login_date
         WHERE user_id = NEW.id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER users_copy_to_memberships AFTER UPDATE OF name, display_name, email, last_login_date ON auth.users
        FOR EACH ROW
        WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.display_name IS DISTINCT FROM NEW.display_name
              OR OLD.email IS DISTINCT FROM NEW.email OR OLD.last_login_date IS DISTINCT FROM NEW.last_login_date)
        EXECUTE FUNCTION auth.users_copy_to_memberships()`);
    await q.query(`
      UPDATE auth.tenant_users tu
         SET search_text = auth.person_search_text(u.name, u.display_name, u.email),
             sort_name = lower(u.name), sort_email = lower(u.email), last_login_date = u.last_login_date
        FROM auth.users u WHERE u.id = tu.user_id`);
    await q.query(`CREATE INDEX tenant_users_search_trgm ON auth.tenant_users USING gin (search_text gin_trgm_ops)`);
    // '%term%' selectivity comes from the histogram; with the default 100 buckets it swings from
    // 10 to 8,000 rows between two ANALYZEs (seen at 100k users). 1,000 buckets keep it steady.
    await q.query(`ALTER TABLE auth.tenant_users ALTER COLUMN search_text SET STATISTICS 1000`);
    await q.query(`CREATE INDEX tenant_users_created ON auth.tenant_users (tenant_id, created_on, user_id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX tenant_users_name_sort ON auth.tenant_users (tenant_id, sort_name, user_id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX tenant_users_email_sort ON auth.tenant_users (tenant_id, sort_email, user_id) WHERE NOT is_deleted`);
    // Users who never signed in come last in both directions.
    await q.query(`CREATE INDEX tenant_users_login_sort ON auth.tenant_users (tenant_id, last_login_date, user_id) WHERE NOT is_deleted`);
    await q.query(
      `CREATE INDEX tenant_users_login_sort_desc ON auth.tenant_users (tenant_id, last_login_date DESC NULLS LAST, user_id DESC) WHERE NOT is_deleted`,
    );
    await q.query(`CREATE INDEX tenant_users_manager ON auth.tenant_users (tenant_id, manager_id) WHERE manager_id IS NOT NULL`);
    await q.query(`CREATE INDEX user_roles_tenant_role ON auth.user_roles (tenant_id, tenant_role_id, user_id) WHERE deleted_on IS NULL`);

    await q.query(`
      CREATE TABLE auth.position_projection (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        position_display_id varchar(20),
        position_name varchar(200) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'ACTIVE',
        is_deleted boolean NOT NULL DEFAULT false,
        external_id varchar(255),
        is_scim_provisioned boolean NOT NULL DEFAULT false,
        updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX position_projection_tenant ON auth.position_projection (tenant_id, id)`);
    await q.query(`
      CREATE TABLE auth.group_projection (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        group_code varchar(20),
        group_name varchar(200) NOT NULL,
        display_name varchar(200),
        tenant_group_type_id uuid,
        tenant_group_type_name varchar(200),
        legal_name varchar(200),
        base_currency varchar(10),
        status varchar(20) NOT NULL DEFAULT 'ACTIVE',
        is_deleted boolean NOT NULL DEFAULT false,
        external_id varchar(255),
        instance_id varchar(255),
        updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX group_projection_tenant ON auth.group_projection (tenant_id, id)`);

    await q.query(`
      CREATE TABLE auth.user_positions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES auth.tenants(id),
        user_id uuid NOT NULL REFERENCES auth.users(id),
        position_id uuid NOT NULL REFERENCES auth.position_projection(id),
        auto_provisioned boolean NOT NULL DEFAULT false,
        instance_id varchar(255),
        is_editable boolean NOT NULL DEFAULT true,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, user_id, position_id)
      )`);
    await q.query(`CREATE INDEX user_positions_position ON auth.user_positions (tenant_id, position_id, user_id) WHERE NOT is_deleted`);
    await q.query(`
      CREATE TABLE auth.user_groups (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES auth.tenants(id),
        user_id uuid NOT NULL REFERENCES auth.users(id),
        group_id uuid NOT NULL REFERENCES auth.group_projection(id),
        is_primary_org boolean NOT NULL DEFAULT false,
        primary_org_set_on timestamptz,
        external_id varchar(255),
        instance_id varchar(255),
        auto_provisioned boolean NOT NULL DEFAULT false,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, user_id, group_id)
      )`);
    await q.query(`CREATE INDEX user_groups_group ON auth.user_groups (tenant_id, group_id, user_id) WHERE NOT is_deleted`);
    // At most one primary organisation per user and tenant, whatever the code does.
    await q.query(`CREATE UNIQUE INDEX user_groups_one_primary ON auth.user_groups (tenant_id, user_id) WHERE is_primary_org AND NOT is_deleted`);

    await q.query(`
      CREATE TABLE auth.delegation_projection (
        delegation_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        issuer_user_id uuid,
        recipient_user_id uuid,
        is_active boolean NOT NULL,
        updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX delegation_projection_issuer ON auth.delegation_projection (tenant_id, issuer_user_id) WHERE is_active`);
    await q.query(`CREATE INDEX delegation_projection_recipient ON auth.delegation_projection (tenant_id, recipient_user_id) WHERE is_active`);

    await q.query(`
      CREATE TABLE auth.invitations (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES auth.tenants(id),
        user_id uuid NOT NULL REFERENCES auth.users(id),
        email varchar(320) NOT NULL,
        status varchar(20) NOT NULL,
        error varchar(500),
        message_id varchar(255),
        sent_by varchar(200),
        created_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX invitations_user ON auth.invitations (tenant_id, user_id, created_on)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE auth.invitations, auth.delegation_projection, auth.user_groups, auth.user_positions, auth.group_projection, auth.position_projection`);
    await q.query(`DROP INDEX auth.tenant_users_manager, auth.user_roles_tenant_role`);
    await q.query(`DROP TRIGGER users_copy_to_memberships ON auth.users`);
    await q.query(`DROP TRIGGER tenant_users_copy_person ON auth.tenant_users`);
    await q.query(`DROP FUNCTION auth.users_copy_to_memberships(), auth.tenant_users_copy_person(), auth.person_search_text(text, text, text)`);
    await q.query(`
      ALTER TABLE auth.tenant_users DROP COLUMN search_text, DROP COLUMN sort_name, DROP COLUMN sort_email, DROP COLUMN last_login_date`);
  }
}
