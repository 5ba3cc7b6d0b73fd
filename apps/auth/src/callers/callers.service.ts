import { Injectable } from '@nestjs/common';
import { CallerResolveReply, CallerResolveRequest } from '@ddm/contracts';
import { Db } from '@ddm/platform';

interface Row {
  id: string;
  email: string;
  name: string | null;
  active_tenant_id: string | null;
  tenant_id: string | null;
  status: string | null;
  is_deleted: boolean | null;
  tenant_status: string | null;
  role_ids: string[];
  keys: string[];
}

/** Maps a token's subject + tenant to the caller: user id, membership and relationship keys. One statement. */
@Injectable()
export class CallersService {
  constructor(private readonly db: Db) {}

  async resolve(req: CallerResolveRequest): Promise<CallerResolveReply> {
    const rows = await this.db.query<Row>(
      `SELECT u.id, u.email, u.name, u.active_tenant_id,
              coalesce(tu.tenant_id, coalesce($2::uuid, u.active_tenant_id)) AS tenant_id,
              tu.status, tu.is_deleted, t.status AS tenant_status,
              coalesce(array_agg(DISTINCT ur.tenant_role_id) FILTER (WHERE ur.id IS NOT NULL), '{}') AS role_ids,
              coalesce(array_agg(DISTINCT m.relationship_key_name) FILTER (WHERE m.role_id IS NOT NULL), '{}') AS keys
         FROM auth.users u
         LEFT JOIN auth.tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = coalesce($2::uuid, u.active_tenant_id)
         LEFT JOIN auth.tenants t ON t.id = tu.tenant_id
         LEFT JOIN auth.user_roles ur ON ur.user_id = u.id AND ur.tenant_id = tu.tenant_id AND ur.deleted_on IS NULL
         LEFT JOIN auth.tenant_roles r ON r.id = ur.tenant_role_id AND NOT r.is_deleted AND NOT r.is_deactivated AND r.status = 'ACTIVE'
         LEFT JOIN auth.role_mappings m ON m.role_id = r.id AND m.is_enabled
        WHERE u.idp_user_id = $1
        GROUP BY u.id, tu.id, t.status`,
      [req.sub, req.tenantId],
    );
    const row = rows[0];
    if (!row) return { found: false, reason: 'No user is registered for this identity' };
    // A member is an active, not deleted membership of an active tenant.
    const member = row.status === 'ACTIVE' && row.is_deleted === false && row.tenant_status === 'ACTIVE';
    return {
      found: true,
      userId: row.id,
      email: row.email,
      name: row.name ?? row.email,
      tenantId: row.tenant_id,
      member,
      roleIds: member ? row.role_ids : [],
      keys: member ? row.keys : [],
    };
  }
}
