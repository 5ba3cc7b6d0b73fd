import { createPlatformTables, dropPlatformTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuthCore1763800000000 implements MigrationInterface {
  name = 'AuthCore1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await createPlatformTables(q, 'auth');
    await q.query(`
      CREATE TABLE auth.tenants (
        id uuid PRIMARY KEY,
        name varchar(200) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'ACTIVE',
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX tenants_name_key ON auth.tenants (lower(name))`);
    await q.query(`
      CREATE TABLE auth.users (
        id uuid PRIMARY KEY,
        idp_user_id varchar(255) UNIQUE,
        login_id varchar(320),
        email varchar(320) NOT NULL,
        first_name varchar(100),
        last_name varchar(100),
        name varchar(200),
        display_name varchar(200),
        mobile_phone varchar(40),
        profile_image_url varchar(2048),
        currency_name varchar(50),
        currency_code varchar(3),
        is_saml boolean NOT NULL DEFAULT false,
        account_type varchar(50),
        user_type varchar(50),
        actor_type varchar(50),
        ai_agent_type varchar(50),
        display_language varchar(20),
        date_format varchar(30),
        column_view_settings jsonb,
        dashboard_data jsonb,
        search_data jsonb,
        is_expire_password boolean NOT NULL DEFAULT false,
        active_tenant_id uuid REFERENCES auth.tenants(id),
        last_login_date timestamptz,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by varchar(200),
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by varchar(200)
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON auth.users (lower(email))`);
    await q.query(`
      CREATE TABLE auth.tenant_users (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES auth.tenants(id),
        user_id uuid NOT NULL REFERENCES auth.users(id),
        user_display_id varchar(20) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'INVITED',
        employee_id varchar(100),
        employee_number varchar(100),
        employee_type varchar(50),
        employment_type varchar(50),
        source_id varchar(100),
        external_id varchar(255),
        instance_id varchar(255),
        system_integration_id varchar(255),
        start_date timestamptz,
        termination_date timestamptz,
        custom_attributes jsonb NOT NULL DEFAULT '{}',
        manager_id uuid REFERENCES auth.users(id),
        auto_provisioned boolean NOT NULL DEFAULT false,
        manager_sync boolean NOT NULL DEFAULT false,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by varchar(200),
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by varchar(200),
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by varchar(200),
        UNIQUE (tenant_id, user_id),
        UNIQUE (tenant_id, user_display_id)
      )`);
    await q.query(`CREATE INDEX tenant_users_user ON auth.tenant_users (user_id)`);
    await q.query(`
      CREATE TABLE auth.tenant_roles (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES auth.tenants(id),
        role_display_id varchar(20) NOT NULL,
        role_name varchar(100) NOT NULL,
        description varchar(500),
        is_custom boolean NOT NULL,
        can_deactivate boolean NOT NULL,
        system_key varchar(40),
        status varchar(20) NOT NULL DEFAULT 'ACTIVE',
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        is_deactivated boolean NOT NULL DEFAULT false,
        deactivated_on timestamptz,
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, role_display_id)
      )`);
    await q.query(`CREATE UNIQUE INDEX tenant_roles_name_key ON auth.tenant_roles (tenant_id, lower(role_name)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX tenant_roles_created ON auth.tenant_roles (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX tenant_roles_updated ON auth.tenant_roles (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    await q.query(`
      CREATE TABLE auth.role_mappings (
        role_id uuid NOT NULL REFERENCES auth.tenant_roles(id) ON DELETE CASCADE,
        relationship_key_name varchar(60) NOT NULL,
        is_enabled boolean NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'ACTIVE',
        PRIMARY KEY (role_id, relationship_key_name)
      )`);
    await q.query(`
      CREATE TABLE auth.user_roles (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES auth.tenants(id),
        user_id uuid NOT NULL REFERENCES auth.users(id),
        tenant_role_id uuid NOT NULL REFERENCES auth.tenant_roles(id),
        auto_provisioned boolean NOT NULL DEFAULT false,
        instance_id varchar(255),
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now(),
        deleted_on timestamptz,
        UNIQUE (tenant_id, user_id, tenant_role_id)
      )`);
    await q.query(`CREATE INDEX user_roles_role ON auth.user_roles (tenant_role_id) WHERE deleted_on IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE auth.user_roles, auth.role_mappings, auth.tenant_roles, auth.tenant_users, auth.users, auth.tenants`);
    await dropPlatformTables(q, 'auth');
  }
}
