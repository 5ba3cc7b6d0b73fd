import { Injectable } from '@nestjs/common';
import { Caller, Page, badRequest, conflict, forbidden, notFound, pageOffset } from '@ddm/contracts';
import { Db, SetClause, TenantUniqueName, containsPattern, refuseTakenName, writeUniqueName } from '@ddm/platform';
import { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { CallerChanges } from '../callers/caller-changes';
import { ListRolesQuery, RoleSort } from './dto/list-roles.query';
import { CreateRoleDto, ROLE_UPDATE_FIELDS, UpdateRoleDto } from './dto/role-change.dto';
import { RoleRow, TenantRoleView, toTenantRoleView } from './dto/role.response';
import { MappingChange, enabledBeyondCaller, fullMappings, roleChangeProblem } from './role.rules';

/** Role names are unique per tenant among roles not deleted, in any case. */
const ROLE_NAME: TenantUniqueName = {
  table: 'auth.tenant_roles',
  column: 'role_name',
  index: 'tenant_roles_name_key',
  taken: (name) => `A role named "${name}" already exists in this tenant`,
};

const SORT_SQL: Record<RoleSort, string> = {
  roleName: 'lower(r.role_name)',
  createdOn: 'r.created_on',
  updatedOn: 'r.updated_on',
};

/** Columns of a role as answered, with its users count and mappings (correlated, indexed subqueries). */
const ROLE_COLUMNS = `
  r.id, r.tenant_id, r.role_display_id, r.role_name, r.description, r.is_custom, r.can_deactivate, r.status,
  r.is_deleted, r.deleted_on, r.is_deactivated, r.deactivated_on, r.created_on, r.updated_on,
  (SELECT count(*) FROM auth.user_roles ur
     JOIN auth.tenant_users tu ON tu.tenant_id = ur.tenant_id AND tu.user_id = ur.user_id AND NOT tu.is_deleted
    WHERE ur.tenant_role_id = r.id AND ur.deleted_on IS NULL) AS users_count,
  (SELECT json_agg(json_build_object('relationshipKeyName', m.relationship_key_name, 'isEnabled', m.is_enabled, 'status', m.status)
          ORDER BY m.relationship_key_name)
     FROM auth.role_mappings m WHERE m.role_id = r.id) AS mappings`;

@Injectable()
export class RolesService {
  constructor(
    private readonly db: Db,
    private readonly changes: CallerChanges,
  ) {}

  async list(tenantId: string, q: ListRolesQuery): Promise<Page<TenantRoleView>> {
    const where = ['r.tenant_id = $1', 'NOT r.is_deleted'];
    const params: unknown[] = [tenantId];
    if (q.search) {
      params.push(containsPattern(q.search));
      where.push(`(r.role_name ILIKE $${params.length} OR r.description ILIKE $${params.length})`);
    }
    if (q.status) {
      params.push(q.status);
      where.push(`r.status = $${params.length}`);
    }
    if (q.isCustom !== undefined) {
      params.push(q.isCustom);
      where.push(`r.is_custom = $${params.length}`);
    }
    if (q.isDeactivated !== undefined) {
      params.push(q.isDeactivated);
      where.push(`r.is_deactivated = $${params.length}`);
    }
    const order = `${SORT_SQL[q.sortBy]} ${q.sortOrder === 'desc' ? 'DESC' : 'ASC'}, r.id`;
    params.push(q.limit, pageOffset(q));
    // The page's ids first (index order), then counts and mappings for those rows only.
    const rows = await this.db.query<RoleRow & { total: string }>(
      `WITH matching AS (SELECT r.id FROM auth.tenant_roles r WHERE ${where.join(' AND ')}),
            page AS (SELECT r.id FROM auth.tenant_roles r WHERE r.id IN (SELECT id FROM matching)
                      ORDER BY ${order} LIMIT $${params.length - 1} OFFSET $${params.length})
       SELECT ${ROLE_COLUMNS}, (SELECT count(*) FROM matching) AS total
         FROM auth.tenant_roles r WHERE r.id IN (SELECT id FROM page)
        ORDER BY ${order}`,
      params,
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && q.page > 1) {
      const [c] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM auth.tenant_roles r WHERE ${where.join(' AND ')}`, params.slice(0, -2));
      total = Number(c.n);
    }
    return new Page(rows.map(toTenantRoleView), total, q.page, q.limit);
  }

  async get(tenantId: string, roleId: string): Promise<TenantRoleView> {
    const [row] = await this.db.query<RoleRow>(
      `SELECT ${ROLE_COLUMNS} FROM auth.tenant_roles r WHERE r.id = $1 AND r.tenant_id = $2 AND NOT r.is_deleted`,
      [roleId, tenantId],
    );
    if (!row) throw notFound(`Tenant role ${roleId} not found`);
    return toTenantRoleView(row);
  }

  /** A custom role: every key of the catalogue, enabled as asked. No one gives a role a key they do not hold. */
  async create(caller: Caller, tenantId: string, dto: CreateRoleDto): Promise<TenantRoleView> {
    refuseKeysBeyondCaller(dto.relationshipMappings, caller);
    const id = uuidv7();
    await this.db.transaction(async (tx) => {
      const roleName = dto.roleName.trim();
      await refuseTakenName(tx.manager, ROLE_NAME, tenantId, roleName, null);
      const displayId = await tx.nextDisplayId(tenantId, 'role');
      await writeUniqueName(ROLE_NAME, roleName, () =>
        tx.manager.query(
          `INSERT INTO auth.tenant_roles (id, tenant_id, role_display_id, role_name, description, is_custom, can_deactivate)
           VALUES ($1, $2, $3, $4, $5, true, true)`,
          [id, tenantId, displayId, roleName, dto.description ?? null],
        ),
      );
      await writeMappings(tx.manager, id, fullMappings(dto.relationshipMappings));
    });
    return this.get(tenantId, id);
  }

  /**
   * Renames a role, changes the keys it lists, or (re)activates it. A change of keys or of
   * activation changes what its holders may do: every cached caller of the tenant is dropped
   * (this process at once, the others through auth.caller.changed).
   */
  async update(caller: Caller, tenantId: string, roleId: string, dto: UpdateRoleDto): Promise<TenantRoleView> {
    if (!ROLE_UPDATE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${ROLE_UPDATE_FIELDS.join(', ')}`);
    await this.changes.transaction(async (tx, callerChanged) => {
      const [role]: { role_name: string; system_key: string | null; can_deactivate: boolean; is_deactivated: boolean }[] = await tx.manager.query(
        `SELECT role_name, system_key, can_deactivate, is_deactivated FROM auth.tenant_roles
          WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`,
        [roleId, tenantId],
      );
      if (!role) throw notFound(`Tenant role ${roleId} not found`);
      const problem = roleChangeProblem({ roleName: role.role_name, systemKey: role.system_key, canDeactivate: role.can_deactivate }, dto);
      if (problem) throw conflict(problem);
      refuseKeysBeyondCaller(dto.relationshipMappings, caller);
      const roleName = dto.roleName?.trim();
      if (roleName !== undefined) await refuseTakenName(tx.manager, ROLE_NAME, tenantId, roleName, roleId);

      const sets = new SetClause([roleId, tenantId], ['updated_on = now()']);
      if (roleName !== undefined) sets.set('role_name', roleName);
      if (dto.description !== undefined) sets.set('description', dto.description);
      const activation = dto.isDeactivated !== undefined && dto.isDeactivated !== role.is_deactivated;
      if (activation) {
        sets.set('is_deactivated', dto.isDeactivated);
        sets.raw(dto.isDeactivated ? `deactivated_on = now(), status = 'INACTIVE'` : `deactivated_on = NULL, status = 'ACTIVE'`);
      }
      await writeUniqueName(ROLE_NAME, roleName ?? '', () =>
        tx.manager.query(`UPDATE auth.tenant_roles SET ${sets.sql} WHERE id = $1 AND tenant_id = $2`, sets.params),
      );
      if (dto.relationshipMappings?.length) await writeMappings(tx.manager, roleId, dto.relationshipMappings);
      if (activation || dto.relationshipMappings?.length) await callerChanged({ tenantId });
    });
    return this.get(tenantId, roleId);
  }
}

function refuseKeysBeyondCaller(mappings: readonly MappingChange[] | undefined, caller: Caller): void {
  const beyond = enabledBeyondCaller(mappings, caller.keys);
  if (beyond.length) throw forbidden(`You cannot grant permissions you do not hold: ${beyond.join(', ')}`);
}

/** Sets the listed keys of a role (one statement); keys not listed keep their state. */
async function writeMappings(m: EntityManager, roleId: string, mappings: readonly MappingChange[]): Promise<void> {
  await m.query(
    `INSERT INTO auth.role_mappings (role_id, relationship_key_name, is_enabled)
     SELECT $1, x.k, x.e FROM unnest($2::text[], $3::boolean[]) AS x(k, e)
     ON CONFLICT (role_id, relationship_key_name) DO UPDATE SET is_enabled = EXCLUDED.is_enabled`,
    [roleId, mappings.map((x) => x.relationshipKeyName), mappings.map((x) => x.isEnabled)],
  );
}
