/**
 * SQL of the user (§2.4) in one tenant, shared by the reads of the users area. Every subquery is
 * correlated to one membership row and served by an index, so a page costs what its rows need.
 */

/** The user's live position links in the tenant, with the projected position names. */
function positionsOf(tenant: string, user: string): string {
  return `(SELECT json_agg(json_build_object(
             'id', up.id, 'userId', up.user_id, 'tenantId', up.tenant_id, 'positionsId', up.position_id,
             'autoProvisioned', up.auto_provisioned, 'instanceId', up.instance_id, 'isEditable', up.is_editable,
             'isDeleted', up.is_deleted, 'deletedOn', up.deleted_on, 'createdOn', up.created_on, 'updatedOn', up.updated_on,
             'positionName', p.position_name, 'isSCIMProvisioned', p.is_scim_provisioned, 'externalId', p.external_id)
             ORDER BY p.position_name, p.id)
       FROM auth.user_positions up JOIN auth.position_projection p ON p.id = up.position_id AND NOT p.is_deleted
      WHERE up.tenant_id = ${tenant} AND up.user_id = ${user} AND NOT up.is_deleted)`;
}

/** Columns of the user: the person (u), the membership (tu), roles, positions, groups, manager, delegation counts. */
export const USER_COLUMNS = `
  u.id, u.idp_user_id, u.login_id, u.email, u.first_name, u.last_name, u.name, u.display_name, u.mobile_phone,
  u.profile_image_url, u.currency_name, u.currency_code, u.is_saml, u.account_type, u.user_type, u.actor_type,
  u.ai_agent_type, u.display_language, u.date_format, u.column_view_settings, u.dashboard_data, u.search_data,
  u.is_expire_password, u.active_tenant_id, u.last_login_date,
  tu.created_on, tu.created_by,
  greatest(u.updated_on, tu.updated_on) AS updated_on,
  CASE WHEN tu.updated_on >= u.updated_on THEN coalesce(tu.updated_by, u.updated_by) ELSE coalesce(u.updated_by, tu.updated_by) END AS updated_by,
  tu.user_display_id AS m_display_id, tu.status AS m_status, tu.employee_id, tu.employee_number,
  tu.employee_type, tu.employment_type, tu.source_id, tu.external_id, tu.instance_id, tu.system_integration_id,
  tu.start_date, tu.termination_date, tu.custom_attributes, tu.auto_provisioned, tu.manager_sync,
  tu.is_deleted AS m_is_deleted, tu.deleted_on AS m_deleted_on,
  (SELECT json_build_object(
            'id', mu.id, 'userId', mtu.user_display_id, 'idpUserId', mu.idp_user_id, 'name', mu.name, 'email', mu.email,
            'firstName', mu.first_name, 'lastName', mu.last_name, 'displayName', mu.display_name,
            'mobilePhone', mu.mobile_phone, 'profileImageUrl', mu.profile_image_url,
            'createdOn', mtu.created_on, 'updatedOn', greatest(mu.updated_on, mtu.updated_on),
            'userPositions', ${positionsOf('mtu.tenant_id', 'mu.id')},
            'primaryOrganization', (SELECT json_build_object('groupName', g.group_name, 'displayName', g.display_name,
                                            'tenantGroupTypeId', g.tenant_group_type_id, 'tenantGroupTypeName', g.tenant_group_type_name)
                                      FROM auth.user_groups ug JOIN auth.group_projection g ON g.id = ug.group_id AND NOT g.is_deleted
                                     WHERE ug.tenant_id = mtu.tenant_id AND ug.user_id = mu.id AND ug.is_primary_org AND NOT ug.is_deleted),
            'managerName', mm.name, 'managerProfileImageUrl', mm.profile_image_url)
     FROM auth.tenant_users mtu
     JOIN auth.users mu ON mu.id = mtu.user_id
     LEFT JOIN auth.tenant_users mmtu ON mmtu.tenant_id = mtu.tenant_id AND mmtu.user_id = mtu.manager_id AND NOT mmtu.is_deleted
     LEFT JOIN auth.users mm ON mm.id = mmtu.user_id
    WHERE mtu.tenant_id = tu.tenant_id AND mtu.user_id = tu.manager_id AND NOT mtu.is_deleted) AS mgr,
  (SELECT json_agg(json_build_object('id', ur.id, 'tenantId', ur.tenant_id, 'tenantRoleId', ur.tenant_role_id,
            'roleName', r.role_name, 'autoProvisioned', ur.auto_provisioned, 'instanceId', ur.instance_id,
            'createdOn', ur.created_on, 'deletedOn', ur.deleted_on, 'updatedOn', ur.updated_on) ORDER BY r.role_name, r.id)
     FROM auth.user_roles ur JOIN auth.tenant_roles r ON r.id = ur.tenant_role_id AND NOT r.is_deleted
    WHERE ur.tenant_id = tu.tenant_id AND ur.user_id = u.id AND ur.deleted_on IS NULL) AS roles,
  ${positionsOf('tu.tenant_id', 'u.id')} AS positions,
  (SELECT json_agg(json_build_object(
            'id', ug.id, 'tenantId', ug.tenant_id, 'userId', ug.user_id, 'groupId', ug.group_id,
            'groupTypeId', g.tenant_group_type_id, 'groupName', g.group_name, 'groupTypeName', g.tenant_group_type_name,
            'displayName', g.display_name, 'isPrimaryOrg', ug.is_primary_org, 'externalId', ug.external_id,
            'instanceId', ug.instance_id, 'primaryOrgSetOn', ug.primary_org_set_on, 'autoProvisioned', ug.auto_provisioned,
            'isDeleted', ug.is_deleted, 'deletedOn', ug.deleted_on, 'createdOn', ug.created_on, 'updatedOn', ug.updated_on)
            ORDER BY ug.is_primary_org DESC, g.group_name, g.id)
     FROM auth.user_groups ug JOIN auth.group_projection g ON g.id = ug.group_id AND NOT g.is_deleted
    WHERE ug.tenant_id = tu.tenant_id AND ug.user_id = u.id AND NOT ug.is_deleted) AS groups,
  (SELECT count(*) FROM auth.delegation_projection d WHERE d.tenant_id = tu.tenant_id AND d.recipient_user_id = u.id AND d.is_active) AS delegations_received,
  (SELECT count(*) FROM auth.delegation_projection d WHERE d.tenant_id = tu.tenant_id AND d.issuer_user_id = u.id AND d.is_active) AS delegations_issued`;

export const USER_FROM = `auth.tenant_users tu JOIN auth.users u ON u.id = tu.user_id`;

/** The §2.3 summary of users of a tenant, as `evt.auth.user.*` carry it (deleted memberships answer status DELETED). */
export const USER_SUMMARY_SQL = `
  SELECT u.id, u.email, u.name, u.display_name AS "displayName", u.profile_image_url AS "profileImageUrl",
         u.mobile_phone AS "mobilePhone", CASE WHEN tu.is_deleted THEN 'DELETED' ELSE tu.status END AS status,
         coalesce((SELECT json_agg(json_build_object('id', p.id, 'positionName', p.position_name, 'autoProvisioned', up.auto_provisioned)
                                   ORDER BY p.position_name, p.id)
                     FROM auth.user_positions up JOIN auth.position_projection p ON p.id = up.position_id AND NOT p.is_deleted
                    WHERE up.tenant_id = tu.tenant_id AND up.user_id = u.id AND NOT up.is_deleted), '[]') AS positions,
         (SELECT json_build_object('id', g.id, 'groupName', g.group_name, 'displayName', g.display_name,
                   'tenantGroupTypeId', g.tenant_group_type_id, 'tenantGroupTypeName', g.tenant_group_type_name,
                   'legalName', g.legal_name, 'baseCurrency', g.base_currency)
            FROM auth.user_groups ug JOIN auth.group_projection g ON g.id = ug.group_id AND NOT g.is_deleted
           WHERE ug.tenant_id = tu.tenant_id AND ug.user_id = u.id AND ug.is_primary_org AND NOT ug.is_deleted) AS "primaryOrganization",
         (SELECT json_build_object('id', mu.id, 'name', mu.name, 'displayName', mu.display_name, 'profileImageUrl', mu.profile_image_url)
            FROM auth.users mu WHERE mu.id = tu.manager_id) AS manager
    FROM ${USER_FROM}
   WHERE tu.tenant_id = $1 AND tu.user_id = ANY($2::uuid[])`;
