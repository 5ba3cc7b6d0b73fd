import { Injectable } from '@nestjs/common';
import { Caller, EVENT_SUBJECTS, Page, badRequest, conflict, forbidden, missingIds, missingIdsError, notFound, selectPage } from '@ddm/contracts';
import { Db, SetClause, listPage, sql } from '@ddm/platform';
import { CallerChanges } from '../core/caller-changes';
import { linkProblem } from '../core/user-fields.rules';
import { ListUsersQuery } from './dto/list-users.query';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { BulkStatusUpdateDto, UPDATABLE_FIELDS, UpdateUserEntitiesDto } from './dto/update-user.dto';
import { BulkStatusResult, UserGroupView, UserPositionView, UserRoleView, UserView, toUserView } from './dto/user.response';
import { UserRefs } from './user-refs';
import { managerProblem } from './user.rules';
import { MY_LINKS_SQL, activeSystemAdmins, managerChain, userList } from './user.sql';

const PREFERENCE_FIELDS = ['displayLanguage', 'dateFormat', 'columnViewSettings', 'dashboardData'] as const;

export const LAST_ADMIN = 'The tenant must keep at least one active System Admin';

@Injectable()
export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly changes: CallerChanges,
    private readonly users: UserRefs,
  ) {}

  /** A user as seen in a tenant; 404 when the user is not (or no longer) a member of it. */
  getInTenant(tenantId: string, userId: string): Promise<UserView> {
    return this.users.view(this.db, tenantId, userId);
  }

  /** The caller's own live roles, positions or groups in a tenant they are a member of (the guard checked it). */
  async myLinks(tenantId: string, userId: string, kind: 'roles'): Promise<UserRoleView[]>;
  async myLinks(tenantId: string, userId: string, kind: 'positions'): Promise<UserPositionView[]>;
  async myLinks(tenantId: string, userId: string, kind: 'groups'): Promise<UserGroupView[]>;
  async myLinks(tenantId: string, userId: string, kind: keyof typeof MY_LINKS_SQL): Promise<unknown[]> {
    const [row] = await this.db.query<{ items: unknown[] }>(MY_LINKS_SQL[kind], [tenantId, userId]);
    return row.items;
  }

  /** One page of the tenant's users and their total, in one statement (see userList). */
  async list(tenantId: string, q: ListUsersQuery): Promise<Page<Partial<UserView>>> {
    return selectPage(await listPage(this.db, userList(tenantId, q), toUserView), q.select);
  }

  /**
   * Changes a user of the caller's tenant: names and phone (the person), employee fields, custom
   * attributes and manager (the membership), roles, positions and groups (replaced as given).
   */
  async updateEntities(caller: Caller, userId: string, dto: UpdateUserEntitiesDto): Promise<UserView> {
    const tenantId = caller.tenantId;
    if (!UPDATABLE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${UPDATABLE_FIELDS.join(', ')}`);
    await this.changes.transaction(async (tx, callerChanged) => {
      const [member] = await tx.query<{ first_name: string | null; last_name: string | null }>(
        `SELECT u.first_name, u.last_name FROM auth.tenant_users tu JOIN auth.users u ON u.id = tu.user_id
          WHERE tu.tenant_id = $1 AND tu.user_id = $2 AND NOT tu.is_deleted FOR UPDATE OF tu`,
        [tenantId, userId],
      );
      if (!member) throw notFound(`User ${userId} not found`);
      const known = await this.users.known(tx, tenantId, {
        roleIds: dto.roleIds ?? [],
        positionIds: dto.positionIds ?? [],
        groupIds: (dto.groups ?? []).map((g) => g.groupId),
        managerIds: dto.managerId ? [dto.managerId] : [],
      });
      const problem = linkProblem(dto, known, caller.keys);
      if (problem) throw problem.kind === 'forbidden' ? forbidden(problem.message) : notFound(problem.message, [{ field: problem.field, message: problem.message }]);
      if (dto.managerId) {
        const cycle = managerProblem(userId, dto.managerId, await managerChain(tx, tenantId, dto.managerId));
        if (cycle) throw badRequest(`managerId ${cycle}`, [{ field: 'managerId', message: cycle }]);
      }

      const changedBy = [sql`updated_on = now()`, sql`updated_by = ${caller.userId}`];
      const person = new SetClause();
      if (dto.firstName !== undefined || dto.lastName !== undefined) {
        const first = dto.firstName ?? member.first_name ?? '';
        const last = dto.lastName ?? member.last_name ?? '';
        const name = `${first} ${last}`.trim();
        person.set('first_name', first).set('last_name', last).set('name', name).set('display_name', name);
      }
      if (dto.mobilePhone !== undefined) person.set('mobile_phone', dto.mobilePhone);
      if (person.size) await tx.query(sql`UPDATE auth.users SET ${person.raw(...changedBy).sql} WHERE id = ${userId}`);

      const membership = new SetClause().raw(...changedBy);
      if (dto.employeeId !== undefined) membership.set('employee_id', dto.employeeId);
      if (dto.employeeType !== undefined) membership.set('employee_type', dto.employeeType);
      if (dto.customAttributes !== undefined) membership.set('custom_attributes', JSON.stringify(dto.customAttributes));
      if (dto.managerId !== undefined) membership.set('manager_id', dto.managerId);
      await tx.query(sql`UPDATE auth.tenant_users SET ${membership.sql} WHERE tenant_id = ${tenantId} AND user_id = ${userId}`);

      const adminsBefore = dto.roleIds !== undefined ? await activeSystemAdmins(tx, tenantId) : 0;
      await this.users.replaceLinks(tx, tenantId, [{ userId, roleIds: dto.roleIds, positionIds: dto.positionIds, groups: dto.groups }]);
      if (adminsBefore > 0 && (await activeSystemAdmins(tx, tenantId)) === 0) throw conflict(LAST_ADMIN);
      await this.users.publish(tx, EVENT_SUBJECTS.userUpdated, tenantId, [userId]);
      if (dto.roleIds !== undefined) await callerChanged({ tenantId, userIds: [userId] });
    });
    return this.getInTenant(tenantId, userId);
  }

  /**
   * Sets the status of up to 500 users of the caller's tenant in one statement. Every id must name a
   * live member of the tenant: an unknown id, another tenant's user or a deleted one is a 404 naming
   * it (`userIds.N`), and nothing changes. The caller themself is not changed and counts as failed.
   * DELETED is a soft delete: the membership leaves every list. A change that would leave the
   * tenant without an active System Admin is refused as a whole (409).
   */
  async bulkStatus(caller: Caller, dto: BulkStatusUpdateDto): Promise<BulkStatusResult> {
    const tenantId = caller.tenantId;
    const ids = dto.userIds.map((id) => id.toLowerCase()).filter((id) => id !== caller.userId);
    const deleting = dto.status === 'DELETED';
    const sets = new SetClause().set('status', dto.status).raw(sql`updated_on = now()`, sql`updated_by = ${caller.userId}`);
    if (deleting) sets.set('is_deleted', true).raw(sql`deleted_on = now()`, sql`deleted_by = ${caller.userId}`);
    const changed = await this.changes.transaction(async (tx, callerChanged) => {
      const live = await tx.query<{ user_id: string }>(
        sql`SELECT user_id FROM auth.tenant_users WHERE tenant_id = ${tenantId} AND user_id = ANY(${dto.userIds.map((id) => id.toLowerCase())}::uuid[]) AND NOT is_deleted ORDER BY user_id FOR UPDATE`,
      );
      const missing = missingIds(dto.userIds, live.map((r) => r.user_id));
      if (missing.length) throw missingIdsError({ what: 'User', field: 'userIds', asked: dto.userIds, missing, suffix: '; nothing was changed' });
      const adminsBefore = dto.status === 'ACTIVE' ? 0 : await activeSystemAdmins(tx, tenantId);
      const rows = await tx.query<{ user_id: string }>(
        sql`UPDATE auth.tenant_users SET ${sets.sql} WHERE tenant_id = ${tenantId} AND user_id = ANY(${ids}::uuid[]) AND NOT is_deleted RETURNING user_id`,
      );
      const userIds = rows.map((r) => r.user_id);
      if (adminsBefore > 0 && (await activeSystemAdmins(tx, tenantId)) === 0) throw conflict(LAST_ADMIN);
      if (userIds.length) {
        await this.users.publish(tx, deleting ? EVENT_SUBJECTS.userDeleted : EVENT_SUBJECTS.userUpdated, tenantId, userIds);
        await callerChanged({ tenantId, userIds });
      }
      return userIds.length;
    });
    return { total: dto.userIds.length, successful: changed, failed: dto.userIds.length - changed };
  }

  /** Makes a tenant the caller's active one (the guard has checked the membership). */
  async setActiveTenant(caller: Caller, tenantId: string): Promise<UserView> {
    await this.changes.transaction(async (tx, callerChanged) => {
      await tx.query(`UPDATE auth.users SET active_tenant_id = $2, updated_on = now(), updated_by = $1 WHERE id = $1`, [caller.userId, tenantId]);
      // Requests naming no tenant were resolved in the previous active tenant.
      await callerChanged({ userIds: [caller.userId] });
    });
    return this.getInTenant(tenantId, caller.userId);
  }

  async updatePreferences(tenantId: string, userId: string, dto: UpdatePreferencesDto): Promise<UserView> {
    if (!PREFERENCE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${PREFERENCE_FIELDS.join(', ')}`);
    const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${userId}`);
    if (dto.displayLanguage !== undefined) sets.set('display_language', dto.displayLanguage);
    if (dto.dateFormat !== undefined) sets.set('date_format', dto.dateFormat);
    if (dto.columnViewSettings !== undefined) sets.set('column_view_settings', JSON.stringify({ columns: dto.columnViewSettings.columns }));
    if (dto.dashboardData !== undefined) sets.set('dashboard_data', JSON.stringify(dto.dashboardData.map(({ x, y, w, h, i }) => ({ x, y, w, h, i }))));
    await this.db.transaction(async (tx) => {
      const [row] = await tx.query(sql`UPDATE auth.users SET ${sets.sql} WHERE id = ${userId} RETURNING id`);
      if (!row) throw notFound(`User ${userId} not found`);
      await this.users.publish(tx, EVENT_SUBJECTS.userUpdated, tenantId, [userId]);
    });
    return this.getInTenant(tenantId, userId);
  }
}
