import { Injectable } from '@nestjs/common';
import { ALL_PERMISSION_KEYS, DEFAULT_ROLES, DefaultRoleKey, EVENT_SUBJECTS, LOGICAL, conflict, notFound } from '@ddm/contracts';
import { Db, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { RoleMappingEntity, TenantRoleEntity } from '../roles/tenant-role.entity';
import { publishUserEvents } from '../users/user-events';
import { TenantUserEntity, UserEntity, UserRoleEntity } from '../users/user.entity';
import { TenantRow, TenantView, UserTenantView, toTenantView, toUserTenantView } from './dto/tenant.response';
import { TenantEntity } from './tenant.entity';

export interface NewMember {
  email: string;
  firstName: string;
  lastName: string;
  roles: DefaultRoleKey[];
  idpUserId?: string;
  status?: 'ACTIVE' | 'INVITED';
  managerId?: string;
}

@Injectable()
export class TenantsService {
  constructor(private readonly db: Db) {}

  /** Creates a tenant with its four default roles (ARCHITECTURE §4). */
  async create(name: string): Promise<TenantEntity> {
    return this.db.transaction(async (tx) => {
      const exists = await tx.manager.query(`SELECT 1 FROM auth.tenants WHERE lower(name) = lower($1)`, [name]);
      if (exists.length) throw conflict(`A tenant named "${name}" already exists`);
      const tenant = tx.manager.create(TenantEntity, { id: uuidv7(), name, status: 'ACTIVE' });
      await tx.manager.insert(TenantEntity, tenant);
      for (const role of DEFAULT_ROLES) {
        const entity = tx.manager.create(TenantRoleEntity, {
          id: uuidv7(),
          tenantId: tenant.id,
          roleId: await tx.nextDisplayId(tenant.id, 'role'),
          roleName: role.roleName,
          description: role.description,
          isCustom: false,
          canDeactivate: role.canDeactivate,
          systemKey: role.key,
        });
        await tx.manager.insert(TenantRoleEntity, entity);
        await tx.manager.insert(
          RoleMappingEntity,
          ALL_PERMISSION_KEYS.map((k) => ({ roleId: entity.id, relationshipKeyName: k, isEnabled: role.keys.includes(k), status: 'ACTIVE' })),
        );
      }
      await tx.publish(EVENT_SUBJECTS.tenantCreated, { tenantId: tenant.id, name });
      return tenant;
    });
  }

  async get(tenantId: string): Promise<TenantView> {
    const [row] = await this.db.query<TenantRow>(`SELECT id, name, status, created_on, updated_on FROM auth.tenants WHERE id = $1`, [tenantId]);
    if (!row) throw notFound(`Tenant ${tenantId} not found`);
    return toTenantView(row);
  }

  /** The active tenants where the user is a member (ACTIVE) or invited (INVITED: the first request there accepts). */
  async listForUser(userId: string): Promise<UserTenantView[]> {
    const rows = await this.db.query<TenantRow & { user_display_id: string; user_status: string; is_active: boolean }>(
      `SELECT t.id, t.name, t.status, t.created_on, t.updated_on, tu.user_display_id, tu.status AS user_status,
              (u.active_tenant_id IS NOT DISTINCT FROM t.id) AS is_active
         FROM auth.tenant_users tu
         JOIN auth.tenants t ON t.id = tu.tenant_id
         JOIN auth.users u ON u.id = tu.user_id
        WHERE tu.user_id = $1 AND NOT tu.is_deleted AND tu.status IN ('ACTIVE', 'INVITED') AND t.status = 'ACTIVE'
        ORDER BY lower(t.name), t.id`,
      [userId],
    );
    return rows.map(toUserTenantView);
  }

  async findByName(name: string): Promise<TenantEntity | null> {
    const [row] = await this.db.query<{ id: string }>(`SELECT id FROM auth.tenants WHERE lower(name) = lower($1)`, [name]);
    return row ? this.db.dataSource.manager.findOneByOrFail(TenantEntity, { id: row.id }) : null;
  }

  /**
   * Adds a person to a tenant with default roles (creating the person if the email is new).
   * Used by the seed; the invitation flow of the users area builds on it.
   */
  async addMember(tenantId: string, m: NewMember): Promise<{ userId: string; userDisplayId: string }> {
    return this.db.transaction(async (tx) => {
      let user = await tx.manager
        .createQueryBuilder(UserEntity, 'u')
        .where('lower(u.email) = lower(:email)', { email: m.email })
        .getOne();
      if (!user) {
        user = tx.manager.create(UserEntity, {
          id: uuidv7(),
          email: m.email.toLowerCase(),
          loginId: m.email.toLowerCase(),
          idpUserId: m.idpUserId ?? null,
          firstName: m.firstName,
          lastName: m.lastName,
          name: `${m.firstName} ${m.lastName}`,
          displayName: `${m.firstName} ${m.lastName}`,
          activeTenantId: tenantId,
          displayLanguage: 'en',
          dateFormat: 'MM/DD/YYYY',
        });
        await tx.manager.insert(UserEntity, user);
      }
      const existing = await tx.manager.findOneBy(TenantUserEntity, { tenantId, userId: user.id });
      if (existing) throw conflict(`${m.email} is already a member of this tenant`);
      const userDisplayId = await tx.nextDisplayId(tenantId, 'user');
      await tx.manager.insert(TenantUserEntity, {
        id: uuidv7(),
        tenantId,
        userId: user.id,
        userDisplayId,
        status: m.status ?? 'ACTIVE',
        managerId: m.managerId ?? null,
        customAttributes: {},
      });
      await this.assignDefaultRoles(tx, tenantId, user.id, m.roles);
      await publishUserEvents(tx, EVENT_SUBJECTS.userCreated, tenantId, [user.id]);
      await tx.publish(LOGICAL.callerChanged, { tenantId, userIds: [user.id] });
      return { userId: user.id, userDisplayId };
    });
  }

  private async assignDefaultRoles(tx: Tx, tenantId: string, userId: string, keys: DefaultRoleKey[]): Promise<void> {
    if (!keys.length) return;
    const roles: { id: string }[] = await tx.manager.query(
      `SELECT id FROM auth.tenant_roles WHERE tenant_id = $1 AND system_key = ANY($2::text[]) AND NOT is_deleted`,
      [tenantId, keys],
    );
    await tx.manager.insert(
      UserRoleEntity,
      roles.map((r) => ({ id: uuidv7(), tenantId, userId, tenantRoleId: r.id })),
    );
  }
}
