import { Injectable } from '@nestjs/common';
import { DEFAULT_ROLES, DefaultRoleKey, EVENT_SUBJECTS, LOGICAL, conflict, notFound } from '@ddm/contracts';
import { Db, Tx, inTenant } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { UserRefs } from '../users/user-refs';
import { TenantRow, TenantView, UserTenantRow, UserTenantView, toTenantView, toUserTenantView } from './dto/tenant.response';
import { defaultRoleMappings } from './tenant.rules';
import { TENANT_BY_ID_SQL, USER_TENANTS_SQL } from './tenant.sql';

export interface NewMember {
  email: string;
  firstName: string;
  lastName: string;
  roles: DefaultRoleKey[];
  idpUserId?: string;
  status?: 'ACTIVE' | 'INVITED';
  managerId?: string;
}

/** A tenant as the seed and the tenant's creation need it. */
export interface TenantRef {
  id: string;
  name: string;
}

@Injectable()
export class TenantsService {
  constructor(
    private readonly db: Db,
    private readonly users: UserRefs,
  ) {}

  /** Creates a tenant with its four default roles and their keys (ARCHITECTURE §4). */
  async create(name: string): Promise<TenantRef> {
    // The new tenant's rows are written in its own context (row-level security admits no other).
    const id = uuidv7();
    return inTenant(id, () => this.db.transaction(async (tx) => {
      const exists = await tx.query(`SELECT 1 FROM auth.tenants WHERE lower(name) = lower($1)`, [name]);
      if (exists.length) throw conflict(`A tenant named "${name}" already exists`);
      await tx.query(`INSERT INTO auth.tenants (id, name, status) VALUES ($1, $2, 'ACTIVE')`, [id, name]);
      const roleIds = DEFAULT_ROLES.map(() => uuidv7());
      const displayIds: string[] = [];
      for (let i = 0; i < DEFAULT_ROLES.length; i++) displayIds.push(await tx.nextDisplayId(id, 'role'));
      await tx.query(
        `INSERT INTO auth.tenant_roles (id, tenant_id, role_display_id, role_name, description, is_custom, can_deactivate, system_key)
         SELECT x.id, $1, x.display_id, x.role_name, x.description, false, x.can_deactivate, x.system_key
           FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[])
             AS x(id, display_id, role_name, description, can_deactivate, system_key)`,
        [
          id,
          roleIds,
          displayIds,
          DEFAULT_ROLES.map((r) => r.roleName),
          DEFAULT_ROLES.map((r) => r.description),
          DEFAULT_ROLES.map((r) => r.canDeactivate),
          DEFAULT_ROLES.map((r) => r.key),
        ],
      );
      const mappings = defaultRoleMappings(roleIds);
      await tx.query(
        `INSERT INTO auth.role_mappings (role_id, tenant_id, relationship_key_name, is_enabled, status)
         SELECT x.role_id, $4, x.key, x.enabled, 'ACTIVE' FROM unnest($1::uuid[], $2::text[], $3::boolean[]) AS x(role_id, key, enabled)`,
        [mappings.map((m) => m.roleId), mappings.map((m) => m.key), mappings.map((m) => m.enabled), id],
      );
      await tx.publish(EVENT_SUBJECTS.tenantCreated, { tenantId: id, name });
      return { id, name };
    }));
  }

  async get(tenantId: string): Promise<TenantView> {
    const [row] = await this.db.query<TenantRow>(TENANT_BY_ID_SQL, [tenantId]);
    if (!row) throw notFound(`Tenant ${tenantId} not found`);
    return toTenantView(row);
  }

  /** The active tenants where the user is a member (ACTIVE) or invited (INVITED: the first request there accepts). */
  async listForUser(userId: string): Promise<UserTenantView[]> {
    // Every tenant of the user: the explicit cross-tenant path.
    const rows = await this.db.acrossTenants('list the tenants of a user', () => this.db.query<UserTenantRow>(USER_TENANTS_SQL, [userId]));
    return rows.map(toUserTenantView);
  }

  async findByName(name: string): Promise<TenantRef | null> {
    const [row] = await this.db.query<TenantRef>(`SELECT id, name FROM auth.tenants WHERE lower(name) = lower($1)`, [name]);
    return row ?? null;
  }

  /**
   * Adds a person to a tenant with default roles (creating the person if the email is new).
   * Used by the seed; the invitation flow of the users area builds on it.
   */
  async addMember(tenantId: string, m: NewMember): Promise<{ userId: string; userDisplayId: string }> {
    // In the tenant's work, whoever calls (an invitation of its admin, the seed).
    return inTenant(tenantId, () => this.db.transaction(async (tx) => {
      const email = m.email.toLowerCase();
      const name = `${m.firstName} ${m.lastName}`;
      let [user] = await tx.query<{ id: string }>(`SELECT id FROM auth.users WHERE lower(email) = $1`, [email]);
      if (!user) {
        [user] = await tx.query<{ id: string }>(
          `INSERT INTO auth.users (id, email, login_id, idp_user_id, first_name, last_name, name, display_name, active_tenant_id, display_language, date_format)
           VALUES ($1, $2, $2, $3, $4, $5, $6, $6, $7, 'en', 'MM/DD/YYYY') RETURNING id`,
          [uuidv7(), email, m.idpUserId ?? null, m.firstName, m.lastName, name, tenantId],
        );
      }
      const existing = await tx.query(`SELECT 1 FROM auth.tenant_users WHERE tenant_id = $1 AND user_id = $2`, [tenantId, user.id]);
      if (existing.length) throw conflict(`${m.email} is already a member of this tenant`);
      const userDisplayId = await tx.nextDisplayId(tenantId, 'user');
      await tx.query(
        `INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, status, manager_id, custom_attributes) VALUES ($1, $2, $3, $4, $5, $6, '{}')`,
        [uuidv7(), tenantId, user.id, userDisplayId, m.status ?? 'ACTIVE', m.managerId ?? null],
      );
      await this.assignDefaultRoles(tx, tenantId, user.id, m.roles);
      await this.users.publish(tx, EVENT_SUBJECTS.userCreated, tenantId, [user.id]);
      await tx.publish(LOGICAL.callerChanged, { tenantId, userIds: [user.id] });
      return { userId: user.id, userDisplayId };
    }));
  }

  private async assignDefaultRoles(tx: Tx, tenantId: string, userId: string, keys: DefaultRoleKey[]): Promise<void> {
    if (!keys.length) return;
    await tx.query(
      `INSERT INTO auth.user_roles (id, tenant_id, user_id, tenant_role_id)
       SELECT x.id, $1, $2, r.id
         FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM auth.tenant_roles
                WHERE tenant_id = $1 AND system_key = ANY($3::text[]) AND NOT is_deleted) r
         JOIN unnest($4::uuid[]) WITH ORDINALITY AS x(id, n) ON x.n = r.n`,
      [tenantId, userId, keys, keys.map(() => uuidv7())],
    );
  }
}
