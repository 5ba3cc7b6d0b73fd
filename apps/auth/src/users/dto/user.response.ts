import { ApiProperty } from '@nestjs/swagger';
import { viewFields } from '@ddm/contracts';
import { USER_STATUSES } from '../user.rules';
import { ColumnViewSettingsDto, DashboardCellDto } from './update-preferences.dto';

/** A role of the user in the tenant (spec §2.4 `userRoles`). */
export class UserRoleView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid' }) tenantRoleId: string;
  @ApiProperty() roleName: string;
  @ApiProperty() autoProvisioned: boolean;
  @ApiProperty({ type: String, nullable: true }) instanceId: string | null;
  @ApiProperty({ format: 'date-time' }) createdOn: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deletedOn: string | null;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
}

/** A position of the user (spec §2.4 `userPositions`), named by the settings area's projection. */
export class UserPositionView {
  @ApiProperty({ format: 'uuid', description: 'The link record id' }) id: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid', description: 'The position record id' }) positionsId: string;
  @ApiProperty() autoProvisioned: boolean;
  @ApiProperty({ type: String, nullable: true }) instanceId: string | null;
  @ApiProperty() isEditable: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deletedOn: string | null;
  @ApiProperty({ format: 'date-time' }) createdOn: string;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
  @ApiProperty() positionName: string;
  @ApiProperty() isSCIMProvisioned: boolean;
  @ApiProperty({ type: String, nullable: true }) externalId: string | null;
}

/** A group of the user (spec §2.4 `userGroups`), named by the settings area's projection. */
export class UserGroupView {
  @ApiProperty({ format: 'uuid', description: 'The link record id' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ format: 'uuid', description: 'The group record id' }) groupId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) groupTypeId: string | null;
  @ApiProperty() groupName: string;
  @ApiProperty({ type: String, nullable: true }) groupTypeName: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty() isPrimaryOrg: boolean;
  @ApiProperty({ type: String, nullable: true }) externalId: string | null;
  @ApiProperty({ type: String, nullable: true }) instanceId: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) primaryOrgSetOn: string | null;
  @ApiProperty() autoProvisioned: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deletedOn: string | null;
  @ApiProperty({ format: 'date-time' }) createdOn: string;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
}

/** The manager's primary organisation. */
export class ManagerOrganizationView {
  @ApiProperty() groupName: string;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) tenantGroupTypeId: string | null;
  @ApiProperty({ type: String, nullable: true }) tenantGroupTypeName: string | null;
}

/** The user's manager (spec §2.4 `manager`). */
export class ManagerView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true, description: "The manager's display id in the tenant" }) userId: string | null;
  @ApiProperty({ type: String, nullable: true }) idpUserId: string | null;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) firstName: string | null;
  @ApiProperty({ type: String, nullable: true }) lastName: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true }) mobilePhone: string | null;
  @ApiProperty({ type: String, nullable: true }) profileImageUrl: string | null;
  @ApiProperty({ format: 'date-time' }) createdOn: string;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
  @ApiProperty({ type: [UserPositionView] }) userPositions: UserPositionView[];
  @ApiProperty({ type: ManagerOrganizationView, nullable: true }) primaryOrganization: ManagerOrganizationView | null;
  @ApiProperty({ type: String, nullable: true, description: "The manager's own manager" }) managerName: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The manager's own manager" }) managerProfileImageUrl: string | null;
}

/** The user of spec §2.4, in the context of one tenant. */
export class UserView {
  @ApiProperty({ format: 'uuid', description: 'The user record id' }) id: string;
  @ApiProperty({ description: 'Display id in the tenant ("10000", ...)' }) userId: string;
  @ApiProperty({ type: String, nullable: true }) loginId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The user's id at the identity provider" }) idpUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) activeTenantId: string | null;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty() isSAML: boolean;
  @ApiProperty({ type: String, nullable: true }) mobilePhone: string | null;
  @ApiProperty({ type: String, nullable: true }) firstName: string | null;
  @ApiProperty({ type: String, nullable: true }) lastName: string | null;
  @ApiProperty({ type: String, nullable: true }) profileImageUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) currencyName: string | null;
  @ApiProperty({ type: String, nullable: true }) currencyCode: string | null;
  @ApiProperty({ type: String, nullable: true }) accountType: string | null;
  @ApiProperty() autoProvisioned: boolean;
  @ApiProperty({ type: String, nullable: true }) employeeId: string | null;
  @ApiProperty({ type: String, nullable: true }) employeeNumber: string | null;
  @ApiProperty({ type: String, nullable: true }) employeeType: string | null;
  @ApiProperty({ type: String, nullable: true }) employmentType: string | null;
  @ApiProperty({ type: String, nullable: true }) userType: string | null;
  @ApiProperty({ type: String, nullable: true }) sourceId: string | null;
  @ApiProperty({ type: String, nullable: true }) actorType: string | null;
  @ApiProperty({ type: String, nullable: true }) aiAgentType: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startDate: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) terminationDate: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Free key/values (strings, numbers, booleans or null)' })
  customAttributes: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) externalId: string | null;
  @ApiProperty({ type: String, nullable: true }) instanceId: string | null;
  @ApiProperty({ type: String, nullable: true }) systemIntegrationId: string | null;
  @ApiProperty({ type: String, nullable: true }) displayLanguage: string | null;
  @ApiProperty({ type: ColumnViewSettingsDto, description: 'What PATCH /auth/v1/user/preferences takes (columns: [] when never set)' })
  columnViewSettings: ColumnViewSettingsDto;
  @ApiProperty({ type: [String] }) searchData: string[];
  @ApiProperty() managerSync: boolean;
  @ApiProperty({ type: ManagerView, nullable: true }) manager: ManagerView | null;
  @ApiProperty({ description: 'The membership of the tenant is deleted' }) isDeleted: boolean;
  @ApiProperty() isExpirePassword: boolean;
  @ApiProperty({ format: 'date-time', description: 'When the user joined the tenant' }) createdOn: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastLoginDate: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Name of the user who invited this user' }) createdBy: string | null;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
  @ApiProperty({ type: String, nullable: true, description: 'Name of the user who changed this user last' }) updatedBy: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deletedOn: string | null;
  @ApiProperty({ description: 'Active delegations the user received (decision area projection)' }) delegationsReceived: number;
  @ApiProperty({ description: 'Active delegations the user issued (decision area projection)' }) delegationsIssued: number;
  @ApiProperty({ type: [DashboardCellDto] }) dashboardData: DashboardCellDto[];
  @ApiProperty({ type: [UserRoleView] }) userRoles: UserRoleView[];
  @ApiProperty({ type: [UserPositionView] }) userPositions: UserPositionView[];
  @ApiProperty({ type: [UserGroupView] }) userGroups: UserGroupView[];
  @ApiProperty({ enum: USER_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true }) dateFormat: string | null;
  @ApiProperty() isImpersonated: boolean;
}

/** PATCH /auth/v1/user/bulk-status-update */
export class BulkStatusResult {
  @ApiProperty({ description: 'Ids asked' }) total: number;
  @ApiProperty({ description: 'Users of the tenant set to the status' }) successful: number;
  @ApiProperty({ description: 'The caller, if named (never changed by this); an unknown, deleted or other tenant\'s id is a 404 instead' }) failed: number;
}

/** One row of the user statements (user.sql.ts): the person, the membership, its links as JSON, manager and counts. */
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
  column_view_settings: Partial<ColumnViewSettingsDto> | null;
  dashboard_data: DashboardCellDto[] | null;
  search_data: string[] | null;
  is_expire_password: boolean;
  active_tenant_id: string | null;
  last_login_date: string | null;
  created_on: string;
  created_by: string | null;
  updated_on: string;
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
  start_date: string | null;
  termination_date: string | null;
  custom_attributes: Record<string, unknown> | null;
  auto_provisioned: boolean;
  manager_sync: boolean;
  m_is_deleted: boolean;
  m_deleted_on: string | null;
  mgr: (Omit<ManagerView, 'userPositions'> & { userPositions: UserPositionView[] | null }) | null;
  roles: UserRoleView[] | null;
  positions: UserPositionView[] | null;
  groups: UserGroupView[] | null;
  delegations_received: number;
  delegations_issued: number;
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
    startDate: r.start_date,
    terminationDate: r.termination_date,
    customAttributes: r.custom_attributes ?? {},
    externalId: r.external_id,
    instanceId: r.instance_id,
    systemIntegrationId: r.system_integration_id,
    displayLanguage: r.display_language,
    // Never set (or stored without columns before PATCH checked its shape): no columns chosen.
    columnViewSettings: { columns: r.column_view_settings?.columns ?? [] },
    searchData: r.search_data ?? [],
    managerSync: r.manager_sync,
    manager: r.mgr ? { ...r.mgr, userPositions: r.mgr.userPositions ?? [] } : null,
    isDeleted: r.m_is_deleted,
    isExpirePassword: r.is_expire_password,
    createdOn: r.created_on,
    lastLoginDate: r.last_login_date,
    createdBy: r.created_by,
    updatedOn: r.updated_on,
    updatedBy: r.updated_by,
    deletedOn: r.m_deleted_on,
    delegationsReceived: r.delegations_received,
    delegationsIssued: r.delegations_issued,
    dashboardData: r.dashboard_data ?? [],
    userRoles: r.roles ?? [],
    userPositions: r.positions ?? [],
    userGroups: r.groups ?? [],
    status: r.m_status,
    dateFormat: r.date_format,
    isImpersonated: false,
  };
}

/** Every field of the view: what `select` may name. */
export const USER_FIELDS = viewFields<UserView>({ id: true, userId: true, loginId: true, idpUserId: true, activeTenantId: true, email: true, name: true, displayName: true, isSAML: true, mobilePhone: true, firstName: true, lastName: true, profileImageUrl: true, currencyName: true, currencyCode: true, accountType: true, autoProvisioned: true, employeeId: true, employeeNumber: true, employeeType: true, employmentType: true, userType: true, sourceId: true, actorType: true, aiAgentType: true, startDate: true, terminationDate: true, customAttributes: true, externalId: true, instanceId: true, systemIntegrationId: true, displayLanguage: true, columnViewSettings: true, searchData: true, managerSync: true, manager: true, isDeleted: true, isExpirePassword: true, createdOn: true, lastLoginDate: true, createdBy: true, updatedOn: true, updatedBy: true, deletedOn: true, delegationsReceived: true, delegationsIssued: true, dashboardData: true, userRoles: true, userPositions: true, userGroups: true, status: true, dateFormat: true, isImpersonated: true });
