import { Injectable } from '@nestjs/common';
import { Page, notFound, pageOffset } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { ListRolesQuery, RoleSort } from './dto/list-roles.query';
import { RoleRow, TenantRoleView, toTenantRoleView } from './dto/role.response';

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

export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

@Injectable()
export class RolesService {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, q: ListRolesQuery): Promise<Page<TenantRoleView>> {
    const where = ['r.tenant_id = $1', 'NOT r.is_deleted'];
    const params: unknown[] = [tenantId];
    if (q.search) {
      params.push(`%${escapeLike(q.search)}%`);
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
}
