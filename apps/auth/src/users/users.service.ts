import { Injectable } from '@nestjs/common';
import { Caller, EVENT_SUBJECTS, Page, badRequest, conflict, forbidden, notFound, pageOffset } from '@ddm/contracts';
import { Db, SetClause, containsPattern } from '@ddm/platform';
import { CallerChanges } from '../callers/caller-changes';
import { ListUsersQuery, UserSort } from './dto/list-users.query';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { BulkStatusResult, BulkStatusUpdateDto, UPDATABLE_FIELDS, UpdateUserEntitiesDto } from './dto/update-user.dto';
import { UserRow, UserView, toUserView } from './dto/user.response';
import { publishUserEvents } from './user-events';
import { activeSystemAdmins, linkProblem, loadRefs, managerChain, replaceLinks } from './user-links';
import { managerProblem } from './user.rules';
import { USER_COLUMNS, USER_FROM } from './user.sql';

/**
 * ORDER BY of each sort, on the membership's own copies of the person's name, email and last
 * sign-in (kept by triggers), each served by a (tenant_id, key, user_id) index; the tie-breaker
 * runs the same way, so one index serves both directions.
 */
const SORT_SQL: Record<UserSort, (dir: 'ASC' | 'DESC') => string> = {
  name: (d) => `tu.sort_name ${d}, tu.user_id ${d}`,
  email: (d) => `tu.sort_email ${d}, tu.user_id ${d}`,
  createdOn: (d) => `tu.created_on ${d}, tu.user_id ${d}`,
  // Users who never signed in come last either way.
  lastLoginDate: (d) => `tu.last_login_date ${d} NULLS LAST, tu.user_id ${d}`,
};

const PREFERENCE_FIELDS = ['displayLanguage', 'dateFormat', 'columnViewSettings', 'dashboardData'] as const;

export const LAST_ADMIN = 'The tenant must keep at least one active System Admin';

@Injectable()
export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly changes: CallerChanges,
  ) {}

  /** A user as seen in a tenant; 404 when the user is not (or no longer) a member of it. */
  async getInTenant(tenantId: string, userId: string): Promise<UserView> {
    const [row] = await this.db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE tu.user_id = $1 AND tu.tenant_id = $2 AND NOT tu.is_deleted`, [
      userId,
      tenantId,
    ]);
    if (!row) throw notFound(`User ${userId} not found`);
    return toUserView(row);
  }

  /**
   * One page of the tenant's users, in one statement: the page's membership ids first (filters,
   * sort and search on the tenant's own membership rows: sort indexes, the trigram index for
   * search, EXISTS on indexed link tables), then the §2.4 columns for those rows only; the total
   * is a count over the same conditions.
   */
  async list(tenantId: string, q: ListUsersQuery): Promise<Page<UserView>> {
    const params: unknown[] = [tenantId];
    const where = ['tu.tenant_id = $1', 'NOT tu.is_deleted'];
    const arg = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (q.search) where.push(`tu.search_text ILIKE ${arg(containsPattern(q.search))}`);
    if (q.status?.length) where.push(`tu.status = ANY(${arg(q.status)}::text[])`);
    if (q.roleIds?.length)
      where.push(
        `EXISTS (SELECT 1 FROM auth.user_roles ur WHERE ur.tenant_id = tu.tenant_id AND ur.user_id = tu.user_id AND ur.deleted_on IS NULL AND ur.tenant_role_id = ANY(${arg(q.roleIds)}::uuid[]))`,
      );
    if (q.positionIds?.length)
      where.push(
        `EXISTS (SELECT 1 FROM auth.user_positions up WHERE up.tenant_id = tu.tenant_id AND up.user_id = tu.user_id AND NOT up.is_deleted AND up.position_id = ANY(${arg(q.positionIds)}::uuid[]))`,
      );
    if (q.groupIds?.length)
      where.push(
        `EXISTS (SELECT 1 FROM auth.user_groups ug WHERE ug.tenant_id = tu.tenant_id AND ug.user_id = tu.user_id AND NOT ug.is_deleted AND ug.group_id = ANY(${arg(q.groupIds)}::uuid[]))`,
      );
    const conditions = where.join(' AND ');
    const order = SORT_SQL[q.sortBy](q.sortOrder === 'desc' ? 'DESC' : 'ASC');
    const filterParams = params.length;
    const limit = arg(q.limit);
    const offset = arg(pageOffset(q));
    const rows = await this.db.query<UserRow & { total: string }>(
      `WITH page AS (SELECT tu.id FROM auth.tenant_users tu WHERE ${conditions} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset})
       SELECT ${USER_COLUMNS}, (SELECT count(*) FROM auth.tenant_users tu WHERE ${conditions}) AS total
         FROM ${USER_FROM}
        WHERE tu.id IN (SELECT id FROM page)
        ORDER BY ${order}`,
      params,
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && q.page > 1) {
      const [c] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM auth.tenant_users tu WHERE ${conditions}`, params.slice(0, filterParams));
      total = Number(c.n);
    }
    return new Page(rows.map(toUserView), total, q.page, q.limit);
  }

  /**
   * Changes a user of the caller's tenant: names and phone (the person), employee fields, custom
   * attributes and manager (the membership), roles, positions and groups (replaced as given).
   */
  async updateEntities(caller: Caller, userId: string, dto: UpdateUserEntitiesDto): Promise<UserView> {
    const tenantId = caller.tenantId;
    const given = UPDATABLE_FIELDS.filter((f) => dto[f] !== undefined);
    if (!given.length) throw badRequest(`Nothing to change: send at least one of ${UPDATABLE_FIELDS.join(', ')}`);
    await this.changes.transaction(async (tx, callerChanged) => {
      const [member]: { user_id: string; first_name: string | null; last_name: string | null }[] = await tx.manager.query(
        `SELECT tu.user_id, u.first_name, u.last_name FROM ${USER_FROM}
          WHERE tu.tenant_id = $1 AND tu.user_id = $2 AND NOT tu.is_deleted FOR UPDATE OF tu`,
        [tenantId, userId],
      );
      if (!member) throw notFound(`User ${userId} not found`);
      const known = await loadRefs(tx.manager, tenantId, {
        roleIds: dto.roleIds ?? [],
        positionIds: dto.positionIds ?? [],
        groupIds: (dto.groups ?? []).map((g) => g.groupId),
        managerIds: dto.managerId ? [dto.managerId] : [],
      });
      const problem = linkProblem(dto, known, caller.keys);
      if (problem) throw problem.kind === 'forbidden' ? forbidden(problem.message) : notFound(problem.message);
      if (dto.managerId) {
        const cycle = managerProblem(userId, dto.managerId, await managerChain(tx.manager, tenantId, dto.managerId));
        if (cycle) throw badRequest(`managerId ${cycle}`, [{ field: 'managerId', message: cycle }]);
      }

      const person: string[] = [];
      const personParams: unknown[] = [userId, caller.name];
      const setPerson = (column: string, value: unknown) => {
        personParams.push(value);
        person.push(`${column} = $${personParams.length}`);
      };
      if (dto.firstName !== undefined || dto.lastName !== undefined) {
        const first = dto.firstName ?? member.first_name ?? '';
        const last = dto.lastName ?? member.last_name ?? '';
        const name = `${first} ${last}`.trim();
        setPerson('first_name', first);
        setPerson('last_name', last);
        setPerson('name', name);
        setPerson('display_name', name);
      }
      if (dto.mobilePhone !== undefined) setPerson('mobile_phone', dto.mobilePhone);
      if (person.length) await tx.manager.query(`UPDATE auth.users SET ${person.join(', ')}, updated_on = now(), updated_by = $2 WHERE id = $1`, personParams);

      const membership: string[] = [];
      const membershipParams: unknown[] = [tenantId, userId, caller.name];
      const setMembership = (column: string, value: unknown) => {
        membershipParams.push(value);
        membership.push(`${column} = $${membershipParams.length}`);
      };
      if (dto.employeeId !== undefined) setMembership('employee_id', dto.employeeId);
      if (dto.employeeType !== undefined) setMembership('employee_type', dto.employeeType);
      if (dto.customAttributes !== undefined) setMembership('custom_attributes', JSON.stringify(dto.customAttributes));
      if (dto.managerId !== undefined) setMembership('manager_id', dto.managerId);
      await tx.manager.query(
        `UPDATE auth.tenant_users SET ${[...membership, 'updated_on = now()', 'updated_by = $3'].join(', ')} WHERE tenant_id = $1 AND user_id = $2`,
        membershipParams,
      );

      const adminsBefore = dto.roleIds !== undefined ? await activeSystemAdmins(tx.manager, tenantId) : 0;
      await replaceLinks(tx.manager, tenantId, [{ userId, roleIds: dto.roleIds, positionIds: dto.positionIds, groups: dto.groups }]);
      if (adminsBefore > 0 && (await activeSystemAdmins(tx.manager, tenantId)) === 0) throw conflict(LAST_ADMIN);
      await publishUserEvents(tx, EVENT_SUBJECTS.userUpdated, tenantId, [userId]);
      if (dto.roleIds !== undefined) await callerChanged({ tenantId, userIds: [userId] });
    });
    return this.getInTenant(tenantId, userId);
  }

  /**
   * Sets the status of up to 500 users of the caller's tenant in one statement. Unknown ids, other
   * tenants' users, deleted users and the caller themself are not changed and count as failed.
   * DELETED is a soft delete: the membership leaves every list. A change that would leave the
   * tenant without an active System Admin is refused as a whole (409).
   */
  async bulkStatus(caller: Caller, dto: BulkStatusUpdateDto): Promise<BulkStatusResult> {
    const tenantId = caller.tenantId;
    const ids = dto.userIds.map((id) => id.toLowerCase()).filter((id) => id !== caller.userId);
    const changed = await this.changes.transaction(async (tx, callerChanged) => {
      const deleting = dto.status === 'DELETED';
      const adminsBefore = dto.status === 'ACTIVE' ? 0 : await activeSystemAdmins(tx.manager, tenantId);
      const rows = await tx.query<{ user_id: string }>(
        `UPDATE auth.tenant_users
            SET status = $3, updated_on = now(), updated_by = $4
                ${deleting ? ', is_deleted = true, deleted_on = now(), deleted_by = $4' : ''}
          WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND NOT is_deleted
          RETURNING user_id`,
        [tenantId, ids, dto.status, caller.name],
      );
      const userIds = rows.map((r) => r.user_id);
      if (adminsBefore > 0 && (await activeSystemAdmins(tx.manager, tenantId)) === 0) throw conflict(LAST_ADMIN);
      if (userIds.length) {
        await publishUserEvents(tx, deleting ? EVENT_SUBJECTS.userDeleted : EVENT_SUBJECTS.userUpdated, tenantId, userIds);
        await callerChanged({ tenantId, userIds });
      }
      return userIds.length;
    });
    return { total: dto.userIds.length, successful: changed, failed: dto.userIds.length - changed };
  }

  /** Makes a tenant the caller's active one (the guard has checked the membership). */
  async setActiveTenant(caller: Caller, tenantId: string): Promise<UserView> {
    await this.changes.transaction(async (tx, callerChanged) => {
      await tx.manager.query(`UPDATE auth.users SET active_tenant_id = $2, updated_on = now(), updated_by = $3 WHERE id = $1`, [caller.userId, tenantId, caller.name]);
      // Requests naming no tenant were resolved in the previous active tenant.
      await callerChanged({ userIds: [caller.userId] });
    });
    return this.getInTenant(tenantId, caller.userId);
  }

  async updatePreferences(tenantId: string, userId: string, dto: UpdatePreferencesDto): Promise<UserView> {
    const given = PREFERENCE_FIELDS.filter((f) => dto[f] !== undefined);
    if (!given.length) throw badRequest(`Nothing to change: send at least one of ${PREFERENCE_FIELDS.join(', ')}`);
    await this.db.transaction(async (tx) => {
      const sets = new SetClause([userId], ['updated_on = now()']);
      if (dto.displayLanguage !== undefined) sets.set('display_language', dto.displayLanguage);
      if (dto.dateFormat !== undefined) sets.set('date_format', dto.dateFormat);
      if (dto.columnViewSettings !== undefined) sets.set('column_view_settings', JSON.stringify({ columns: dto.columnViewSettings.columns }));
      if (dto.dashboardData !== undefined) sets.set('dashboard_data', JSON.stringify(dto.dashboardData.map(({ x, y, w, h, i }) => ({ x, y, w, h, i }))));
      const [row] = await tx.query<{ id: string }>(`UPDATE auth.users SET ${sets.sql} WHERE id = $1 RETURNING id`, sets.params);
      if (!row) throw notFound(`User ${userId} not found`);
      await publishUserEvents(tx, EVENT_SUBJECTS.userUpdated, tenantId, [userId]);
    });
    return this.getInTenant(tenantId, userId);
  }
}
