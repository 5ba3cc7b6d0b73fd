/** The user of spec §2.4, in the context of one tenant. */
export interface UserView {
  id: string;
  userId: string;
  loginId: string | null;
  idpUserId: string | null;
  activeTenantId: string | null;
  email: string;
  name: string | null;
  displayName: string | null;
  isSAML: boolean;
  mobilePhone: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  currencyName: string | null;
  currencyCode: string | null;
  accountType: string | null;
  autoProvisioned: boolean;
  employeeId: string | null;
  employeeNumber: string | null;
  employeeType: string | null;
  employmentType: string | null;
  userType: string | null;
  sourceId: string | null;
  actorType: string | null;
  aiAgentType: string | null;
  startDate: string | null;
  terminationDate: string | null;
  customAttributes: Record<string, unknown>;
  externalId: string | null;
  instanceId: string | null;
  systemIntegrationId: string | null;
  displayLanguage: string | null;
  columnViewSettings: { columns: string[] } | null;
  searchData: string[];
  managerSync: boolean;
  manager: ManagerView | null;
  isDeleted: boolean;
  isExpirePassword: boolean;
  createdOn: string;
  lastLoginDate: string | null;
  createdBy: string | null;
  updatedOn: string;
  updatedBy: string | null;
  deletedOn: string | null;
  delegationsReceived: number;
  delegationsIssued: number;
  dashboardData: { x: number; y: number; w: number; h: number; i: string }[];
  userRoles: UserRoleView[];
  userPositions: unknown[];
  userGroups: unknown[];
  status: string;
  dateFormat: string | null;
  isImpersonated: boolean;
}

export interface ManagerView {
  id: string;
  userId: string | null;
  idpUserId: string | null;
  name: string | null;
  email: string;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  mobilePhone: string | null;
  profileImageUrl: string | null;
  createdOn: string;
  updatedOn: string;
  userPositions: unknown[];
  primaryOrganization: { groupName: string; displayName: string; tenantGroupTypeId: string; tenantGroupTypeName: string } | null;
  managerName: string | null;
  managerProfileImageUrl: string | null;
}

export interface UserRoleView {
  id: string;
  tenantId: string;
  tenantRoleId: string;
  roleName: string;
  autoProvisioned: boolean;
  instanceId: string | null;
  createdOn: string;
  deletedOn: string | null;
  updatedOn: string;
}

/** One row: the person joined with the membership of the tenant asked for, and the manager. */
export interface UserRow {
  id: string;
  idp_user_id: string | null;
  login_id: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  display_name: string | null;
  mobile_phone: string | null;
  profile_image_url: string | null;
  currency_name: string | null;
  currency_code: string | null;
  is_saml: boolean;
  account_type: string | null;
  user_type: string | null;
  actor_type: string | null;
  ai_agent_type: string | null;
  display_language: string | null;
  date_format: string | null;
  column_view_settings: { columns: string[] } | null;
  dashboard_data: UserView['dashboardData'] | null;
  search_data: string[] | null;
  is_expire_password: boolean;
  active_tenant_id: string | null;
  last_login_date: Date | null;
  created_on: Date;
  created_by: string | null;
  updated_on: Date;
  updated_by: string | null;
  m_display_id: string;
  m_status: string;
  employee_id: string | null;
  employee_number: string | null;
  employee_type: string | null;
  employment_type: string | null;
  source_id: string | null;
  external_id: string | null;
  instance_id: string | null;
  system_integration_id: string | null;
  start_date: Date | null;
  termination_date: Date | null;
  custom_attributes: Record<string, unknown> | null;
  auto_provisioned: boolean;
  manager_sync: boolean;
  m_is_deleted: boolean;
  m_deleted_on: Date | null;
  mgr: {
    id: string;
    user_display_id: string | null;
    idp_user_id: string | null;
    name: string | null;
    email: string;
    first_name: string | null;
    last_name: string | null;
    display_name: string | null;
    mobile_phone: string | null;
    profile_image_url: string | null;
    created_on: string;
    updated_on: string;
  } | null;
  roles: { id: string; tenant_id: string; tenant_role_id: string; role_name: string; auto_provisioned: boolean; instance_id: string | null; created_on: string; deleted_on: string | null; updated_on: string }[] | null;
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toUserView(r: UserRow): UserView {
  return {
    id: r.id,
    userId: r.m_display_id,
    loginId: r.login_id,
    idpUserId: r.idp_user_id,
    activeTenantId: r.active_tenant_id,
    email: r.email,
    name: r.name,
    displayName: r.display_name,
    isSAML: r.is_saml,
    mobilePhone: r.mobile_phone,
    firstName: r.first_name,
    lastName: r.last_name,
    profileImageUrl: r.profile_image_url,
    currencyName: r.currency_name,
    currencyCode: r.currency_code,
    accountType: r.account_type,
    autoProvisioned: r.auto_provisioned,
    employeeId: r.employee_id,
    employeeNumber: r.employee_number,
    employeeType: r.employee_type,
    employmentType: r.employment_type,
    userType: r.user_type,
    sourceId: r.source_id,
    actorType: r.actor_type,
    aiAgentType: r.ai_agent_type,
    startDate: iso(r.start_date),
    terminationDate: iso(r.termination_date),
    customAttributes: r.custom_attributes ?? {},
    externalId: r.external_id,
    instanceId: r.instance_id,
    systemIntegrationId: r.system_integration_id,
    displayLanguage: r.display_language,
    columnViewSettings: r.column_view_settings,
    searchData: r.search_data ?? [],
    managerSync: r.manager_sync,
    manager: r.mgr
      ? {
          id: r.mgr.id,
          userId: r.mgr.user_display_id,
          idpUserId: r.mgr.idp_user_id,
          name: r.mgr.name,
          email: r.mgr.email,
          firstName: r.mgr.first_name,
          lastName: r.mgr.last_name,
          displayName: r.mgr.display_name,
          mobilePhone: r.mgr.mobile_phone,
          profileImageUrl: r.mgr.profile_image_url,
          createdOn: iso(r.mgr.created_on) as string,
          updatedOn: iso(r.mgr.updated_on) as string,
          userPositions: [],
          primaryOrganization: null,
          managerName: r.mgr.name,
          managerProfileImageUrl: r.mgr.profile_image_url,
        }
      : null,
    isDeleted: r.m_is_deleted,
    isExpirePassword: r.is_expire_password,
    createdOn: r.created_on.toISOString(),
    lastLoginDate: iso(r.last_login_date),
    createdBy: r.created_by,
    updatedOn: r.updated_on.toISOString(),
    updatedBy: r.updated_by,
    deletedOn: iso(r.m_deleted_on),
    // Filled from the decision area's delegation events once that area exists.
    delegationsReceived: 0,
    delegationsIssued: 0,
    dashboardData: r.dashboard_data ?? [],
    userRoles: (r.roles ?? []).map((x) => ({
      id: x.id,
      tenantId: x.tenant_id,
      tenantRoleId: x.tenant_role_id,
      roleName: x.role_name,
      autoProvisioned: x.auto_provisioned,
      instanceId: x.instance_id,
      createdOn: iso(x.created_on) as string,
      deletedOn: iso(x.deleted_on),
      updatedOn: iso(x.updated_on) as string,
    })),
    // Filled from the settings area's events once that area exists.
    userPositions: [],
    userGroups: [],
    status: r.m_status,
    dateFormat: r.date_format,
    isImpersonated: false,
  };
}
