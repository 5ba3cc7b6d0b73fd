import { Injectable } from '@nestjs/common';
import { CallerResolveReply, CallerResolveRequest, EVENT_SUBJECTS } from '@ddm/contracts';
import { Db, SetClause, sql, violatedUniqueConstraint } from '@ddm/platform';
import { CallerChanges } from '../core/caller-changes';
import { UserRefs } from '../users/user-refs';
import { CallerRow, acceptsInvitation, callerReply } from './caller.rules';

/**
 * Maps a token's subject + tenant to the caller: user id, membership and relationship keys (one
 * statement). Two first-time moves happen here, once each: an unknown subject whose email matches
 * an invited user of the tenant is linked to that user (first sign-in), and a user's invitation to
 * a tenant is accepted by their first request there. Both make the membership ACTIVE.
 */
@Injectable()
export class CallersService {
  constructor(
    private readonly db: Db,
    private readonly changes: CallerChanges,
    private readonly users: UserRefs,
  ) {}

  /** Cross-tenant by nature (the token names the user, the tenant is found from it): the explicit path. */
  resolve(req: CallerResolveRequest): Promise<CallerResolveReply> {
    return this.db.acrossTenants('resolve a caller from a token', () => this.resolveAcrossTenants(req));
  }

  private async resolveAcrossTenants(req: CallerResolveRequest): Promise<CallerResolveReply> {
    let row = await this.lookup(req);
    if (!row && req.email && (await this.linkInvited(req.sub, req.email, req.tenantId))) row = await this.lookup(req);
    else if (row && acceptsInvitation(row)) {
      await this.activate(row.id, row.tenant_id as string, req.sub, false);
      row = await this.lookup(req);
    }
    return callerReply(row);
  }

  private async lookup(req: CallerResolveRequest): Promise<CallerRow | undefined> {
    const rows = await this.db.query<CallerRow>(
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
    return rows[0];
  }

  /**
   * First sign-in: the token's subject is unknown, but its email is that of a user invited to the
   * tenant (named, else the user's active tenant) who has no identity yet. Links the identity.
   */
  private async linkInvited(sub: string, email: string, tenantId: string | null): Promise<boolean> {
    const [invited] = await this.db.query<{ id: string; tenant_id: string }>(
      `SELECT u.id, tu.tenant_id
         FROM auth.users u
         JOIN auth.tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = coalesce($2::uuid, u.active_tenant_id)
                                  AND tu.status = 'INVITED' AND NOT tu.is_deleted
         JOIN auth.tenants t ON t.id = tu.tenant_id AND t.status = 'ACTIVE'
        WHERE lower(u.email) = lower($1) AND u.idp_user_id IS NULL`,
      [email, tenantId],
    );
    if (!invited) return false;
    try {
      return await this.activate(invited.id, invited.tenant_id, sub, true);
    } catch (err) {
      // The same identity was linked a moment ago by a concurrent first request.
      if (violatedUniqueConstraint(err) !== null) return true;
      throw err;
    }
  }

  /** INVITED -> ACTIVE in the tenant (and the identity linked on first sign-in); sets lastLoginDate. */
  private async activate(userId: string, tenantId: string, sub: string, link: boolean): Promise<boolean> {
    return this.changes.transaction(async (tx, callerChanged) => {
      const sets = new SetClause().raw(sql`last_login_date = now()`, sql`updated_on = now()`);
      if (link) sets.set('idp_user_id', sub);
      const identity = link ? sql`idp_user_id IS NULL` : sql`idp_user_id = ${sub}`;
      const linked = await tx.query(sql`UPDATE auth.users SET ${sets.sql} WHERE id = ${userId} AND ${identity} RETURNING id`);
      if (!linked.length) return false;
      const accepted = await tx.query(
        `UPDATE auth.tenant_users SET status = 'ACTIVE', updated_on = now()
          WHERE tenant_id = $1 AND user_id = $2 AND status = 'INVITED' AND NOT is_deleted RETURNING id`,
        [tenantId, userId],
      );
      if (!accepted.length) return link;
      await this.users.publish(tx, EVENT_SUBJECTS.userUpdated, tenantId, [userId]);
      await callerChanged({ userIds: [userId], subs: [sub] });
      return true;
    });
  }
}
