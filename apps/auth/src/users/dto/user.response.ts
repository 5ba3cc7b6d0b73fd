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
  userPositions: UserPositionView[];
  userGroups: UserGroupView[];
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
  userPositions: UserPositionView[];
  primaryOrganization: { groupName: string; displayName: string | null; tenantGroupTypeId: string | null; tenantGroupTypeName: string | null } | null;
  /** The manager's own manager. */
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

export interface UserPositionView {
  id: string;
  userId: string;
  tenantId: string;
  positionsId: string;
  autoProvisioned: boolean;
  instanceId: string | null;
  isEditable: boolean;
  isDeleted: boolean;
  deletedOn: string | null;
  createdOn: string;
  updatedOn: string;
  positionName: string;
  isSCIMProvisioned: boolean;
  externalId: string | null;
}

export interface UserGroupView {
  id: string;
  tenantId: string;
  userId: string;
  groupId: string;
  groupTypeId: string | null;
  groupName: string;
  groupTypeName: string | null;
  displayName: string | null;
  isPrimaryOrg: boolean;
  externalId: string | null;
  instanceId: string | null;
  primaryOrgSetOn: string | null;
  autoProvisioned: boolean;
  isDeleted: boolean;
  deletedOn: string | null;
  createdOn: string;
  updatedOn: string;
}

/** Postgres JSON answers timestamps as `2026-01-31T12:00:00.123456+00:00`; the API answers ISO UTC. */
const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const isoReq = (d: Date | string): string => new Date(d).toISOString();

type Json<T, Dates extends keyof T> = Omit<T, Dates> & { [K in Dates]: T[K] extends string ? string : string | null };

type PositionJson = Json<UserPositionView, 'deletedOn' | 'createdOn' | 'updatedOn'>;
type GroupJson = Json<UserGroupView, 'primaryOrgSetOn' | 'deletedOn' | 'createdOn' | 'updatedOn'>;
type RoleJson = Json<UserRoleView, 'createdOn' | 'deletedOn' | 'updatedOn'>;
type ManagerJson = Omit<ManagerView, 'userPositions'> & { userPositions: PositionJson[] | null };

/** One row: the person joined with the membership of the tenant asked for, its links, manager and counts. */
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
  mgr: ManagerJson | null;
  roles: RoleJson[] | null;
  positions: PositionJson[] | null;
  groups: GroupJson[] | null;
  delegations_received: string | number;
  delegations_issued: string | number;
}

function toPositionView(p: PositionJson): UserPositionView {
  return { ...p, deletedOn: iso(p.deletedOn), createdOn: isoReq(p.createdOn), updatedOn: isoReq(p.updatedOn) };
}

function toGroupView(g: GroupJson): UserGroupView {
  return { ...g, primaryOrgSetOn: iso(g.primaryOrgSetOn), deletedOn: iso(g.deletedOn), createdOn: isoReq(g.createdOn), updatedOn: isoReq(g.updatedOn) };
}

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
          ...r.mgr,
          createdOn: isoReq(r.mgr.createdOn),
          updatedOn: isoReq(r.mgr.updatedOn),
          userPositions: (r.mgr.userPositions ?? []).map(toPositionView),
        }
      : null,
    isDeleted: r.m_is_deleted,
    isExpirePassword: r.is_expire_password,
    createdOn: isoReq(r.created_on),
    lastLoginDate: iso(r.last_login_date),
    createdBy: r.created_by,
    updatedOn: isoReq(r.updated_on),
    updatedBy: r.updated_by,
    deletedOn: iso(r.m_deleted_on),
    delegationsReceived: Number(r.delegations_received),
    delegationsIssued: Number(r.delegations_issued),
    dashboardData: r.dashboard_data ?? [],
    userRoles: (r.roles ?? []).map((x) => ({ ...x, createdOn: isoReq(x.createdOn), deletedOn: iso(x.deletedOn), updatedOn: isoReq(x.updatedOn) })),
    userPositions: (r.positions ?? []).map(toPositionView),
    userGroups: (r.groups ?? []).map(toGroupView),
    status: r.m_status,
    dateFormat: r.date_format,
    isImpersonated: false,
  };
}
