import { Injectable } from '@nestjs/common';
import { EVENT_SUBJECTS, badRequest, notFound } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { UserRow, UserView, toUserView } from './dto/user.response';

/** The user (§2.4) in one tenant: person + membership + roles + manager, in one statement. */
const USER_SELECT = `
  SELECT u.*, tu.user_display_id AS m_display_id, tu.status AS m_status, tu.employee_id, tu.employee_number,
         tu.employee_type, tu.employment_type, tu.source_id, tu.external_id, tu.instance_id, tu.system_integration_id,
         tu.start_date, tu.termination_date, tu.custom_attributes, tu.auto_provisioned, tu.manager_sync,
         tu.is_deleted AS m_is_deleted, tu.deleted_on AS m_deleted_on,
         (SELECT json_build_object('id', mu.id, 'user_display_id', mtu.user_display_id, 'idp_user_id', mu.idp_user_id,
                 'name', mu.name, 'email', mu.email, 'first_name', mu.first_name, 'last_name', mu.last_name,
                 'display_name', mu.display_name, 'mobile_phone', mu.mobile_phone, 'profile_image_url', mu.profile_image_url,
                 'created_on', mu.created_on, 'updated_on', mu.updated_on)
            FROM auth.users mu LEFT JOIN auth.tenant_users mtu ON mtu.user_id = mu.id AND mtu.tenant_id = tu.tenant_id
           WHERE mu.id = tu.manager_id) AS mgr,
         (SELECT json_agg(json_build_object('id', ur.id, 'tenant_id', ur.tenant_id, 'tenant_role_id', ur.tenant_role_id,
                 'role_name', r.role_name, 'auto_provisioned', ur.auto_provisioned, 'instance_id', ur.instance_id,
                 'created_on', ur.created_on, 'deleted_on', ur.deleted_on, 'updated_on', ur.updated_on) ORDER BY r.role_name)
            FROM auth.user_roles ur JOIN auth.tenant_roles r ON r.id = ur.tenant_role_id AND NOT r.is_deleted
           WHERE ur.user_id = u.id AND ur.tenant_id = tu.tenant_id AND ur.deleted_on IS NULL) AS roles
    FROM auth.users u
    JOIN auth.tenant_users tu ON tu.user_id = u.id`;

const PREFERENCE_FIELDS = ['displayLanguage', 'dateFormat', 'columnViewSettings', 'dashboardData'] as const;

@Injectable()
export class UsersService {
  constructor(private readonly db: Db) {}

  /** A user as seen in a tenant; 404 when the user is not (or no longer) a member of it. */
  async getInTenant(tenantId: string, userId: string): Promise<UserView> {
    const [row] = await this.db.query<UserRow>(`${USER_SELECT} WHERE u.id = $1 AND tu.tenant_id = $2 AND NOT tu.is_deleted`, [userId, tenantId]);
    if (!row) throw notFound(`User ${userId} not found`);
    return toUserView(row);
  }

  async updatePreferences(tenantId: string, userId: string, dto: UpdatePreferencesDto): Promise<UserView> {
    const given = PREFERENCE_FIELDS.filter((f) => dto[f] !== undefined);
    if (!given.length) throw badRequest(`Nothing to change: send at least one of ${PREFERENCE_FIELDS.join(', ')}`);
    await this.db.transaction(async (tx) => {
      const sets: string[] = [];
      const params: unknown[] = [userId];
      const set = (column: string, value: unknown) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      if (dto.displayLanguage !== undefined) set('display_language', dto.displayLanguage);
      if (dto.dateFormat !== undefined) set('date_format', dto.dateFormat);
      if (dto.columnViewSettings !== undefined) set('column_view_settings', JSON.stringify({ columns: dto.columnViewSettings.columns }));
      if (dto.dashboardData !== undefined) set('dashboard_data', JSON.stringify(dto.dashboardData.map(({ x, y, w, h, i }) => ({ x, y, w, h, i }))));
      type Returned = { id: string; email: string; name: string | null; display_name: string | null; profile_image_url: string | null; mobile_phone: string | null };
      // TypeORM answers an UPDATE ... RETURNING with [rows, affectedCount].
      const [rows]: [Returned[], number] = await tx.manager.query(
          `UPDATE auth.users SET ${[...sets, 'updated_on = now()'].join(', ')} WHERE id = $1
           RETURNING id, email, name, display_name, profile_image_url, mobile_phone`,
          params,
        );
      const u = rows[0];
      if (!u) throw notFound(`User ${userId} not found`);
      const [membership]: { status: string }[] = await tx.manager.query(`SELECT status FROM auth.tenant_users WHERE tenant_id = $1 AND user_id = $2`, [tenantId, userId]);
      await tx.publish(EVENT_SUBJECTS.userUpdated, {
        tenantId,
        user: { id: u.id, email: u.email, name: u.name, displayName: u.display_name, profileImageUrl: u.profile_image_url, mobilePhone: u.mobile_phone, status: membership.status },
      });
    });
    return this.getInTenant(tenantId, userId);
  }
}
