import { ApiProperty } from '@nestjs/swagger';
import { Caller, PermissionRule, RecordPermission, recordPermissions, relationshipsOf } from '@ddm/contracts';
import { MatrixStatusView } from '../../core/matrix-status.response';
import { statusByName } from '../../core/matrix-status.rules';

export class MatrixSectionView {
  @ApiProperty({ format: 'uuid' }) sectionId: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
}

export class MatrixCategoryView {
  @ApiProperty({ format: 'uuid' }) categoryId: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
}

export class MatrixPositionRefView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() positionName: string;
}

export class MatrixUserDetailsView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) firstName: string | null;
  @ApiProperty({ type: String, nullable: true }) lastName: string | null;
  @ApiProperty({ type: String, nullable: true }) mobilePhone: string | null;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ type: String, nullable: true }) profileImageUrl: string | null;
  @ApiProperty({ type: [MatrixPositionRefView] }) positions: MatrixPositionRefView[];
}

export class MatrixGroupDetailsView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() groupName: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ type: String, nullable: true }) groupTypeName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) groupTypeId: string | null;
  @ApiProperty() status: string;
  @ApiProperty({ type: [String] }) parentGroupIds: string[];
  @ApiProperty() isSynced: boolean;
}

export class MatrixSharingUserView {
  @ApiProperty({ format: 'uuid', description: 'The sharing entry (the user id: one entry per user)' }) id: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ type: MatrixUserDetailsView, nullable: true }) userDetails: MatrixUserDetailsView | null;
}

export class MatrixSharingGroupView {
  @ApiProperty({ format: 'uuid', description: 'The sharing entry (the group id: one entry per group)' }) id: string;
  @ApiProperty({ format: 'uuid' }) groupId: string;
  @ApiProperty({ type: MatrixGroupDetailsView, nullable: true }) groupDetails: MatrixGroupDetailsView | null;
}

export class MatrixSharingView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['SHARED', 'PRIVATE'] }) type: string;
  @ApiProperty({ example: 'USERS_GROUPS' }) sharingOption: string;
  @ApiProperty() link: boolean;
  @ApiProperty() viewerAdjustableFilters: boolean;
  @ApiProperty({ description: 'Whether the external link is on' }) externalSharing: boolean;
  @ApiProperty({ type: [MatrixSharingUserView] }) users: MatrixSharingUserView[];
  @ApiProperty({ type: [MatrixSharingGroupView] }) groups: MatrixSharingGroupView[];
}

export class MatrixAuthorityRoleView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) authorityRoleId: string;
  @ApiProperty() isEnabled: boolean;
}

export class MatrixGroupView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The group (settings area)' }) tenantGroupsMappingId: string;
  @ApiProperty({ type: MatrixGroupDetailsView, nullable: true }) groupDetails: MatrixGroupDetailsView | null;
}

export class MatrixPositionDetailsView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty() positionName: string;
  @ApiProperty() isScimProvisioned: boolean;
  @ApiProperty() status: string;
  @ApiProperty({ type: [String] }) groupIds: string[];
}

export class MatrixPositionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) positionId: string;
  @ApiProperty({ type: MatrixPositionDetailsView, nullable: true }) positionDetails: MatrixPositionDetailsView | null;
}

export class MatrixUserView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ type: MatrixUserDetailsView, nullable: true }) userDetails: MatrixUserDetailsView | null;
}

export class MatrixDecisionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty() isDisabled: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disabledOn: string | null;
}

export class MatrixDelegationView {
  @ApiProperty({ type: [String] }) authorityTypeIds: string[];
  @ApiProperty() delegationRole: boolean;
  @ApiProperty({ type: [String] }) roleIds: string[];
  @ApiProperty({ type: [String] }) issuanceStatusNames: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) primaryLimitTypes: Record<string, unknown>;
  @ApiProperty() delegationDataDetails: boolean;
  @ApiProperty() delegationDataGroups: boolean;
  @ApiProperty() delegationDataDocuments: boolean;
  @ApiProperty() delegationDataConditions: boolean;
  @ApiProperty() delegationDataAuthorities: boolean;
  @ApiProperty() delegationDataRoles: boolean;
}

export class MatrixAuthorityFormattingView {
  @ApiProperty({ type: String, nullable: true }) valueAbbrevations: string | null;
  @ApiProperty({ type: String, nullable: true }) valueRounding: string | null;
  @ApiProperty({ type: String, nullable: true }) timeUnit: string | null;
  @ApiProperty({ type: String, nullable: true }) timeRounding: string | null;
  @ApiProperty({ type: String, nullable: true }) delegationIdentification: string | null;
  @ApiProperty({ type: String, nullable: true }) displayCurrencyCode: string | null;
}

export class MatrixExternalSharingView {
  @ApiProperty() isEnabled: boolean;
  @ApiProperty() isExpirationEnabled: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expirationDate: string | null;
  @ApiProperty() isPasswordRequired: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'The read-only link (full URL); null when off' }) link: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The link’s token (at least 128 random bits)' }) token: string | null;
}

/** A matrix (spec §2.12) with every embedded list. */
export class MatrixView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '10000' }) matrixId: string;
  @ApiProperty() matrixName: string;
  @ApiProperty({ type: String, nullable: true }) matrixDescription: string | null;
  @ApiProperty({ description: 'The matrix in the web app' }) link: string;
  @ApiProperty() roleMatrix: boolean;
  @ApiProperty() authorityMatrix: boolean;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid' }) ownerId: string;
  @ApiProperty() decisionCount: number;
  @ApiProperty() delegationCount: number;
  @ApiProperty() suspendedDelegationsCount: number;
  @ApiProperty() pendingDelegationsCount: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) copiedFromMatrix: string | null;
  @ApiProperty({ format: 'date-time' }) createdOn: string;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
  @ApiProperty({ type: String, nullable: true }) currentTab: string | null;
  @ApiProperty() isFavorite: boolean;
  @ApiProperty() isUserSavedPersonalView: boolean;
  @ApiProperty({ type: [RecordPermission] }) permissions: RecordPermission[];
  @ApiProperty({ type: [MatrixSectionView] }) matrixSections: MatrixSectionView[];
  @ApiProperty({ type: [MatrixCategoryView] }) matrixCategories: MatrixCategoryView[];
  @ApiProperty({ type: MatrixUserDetailsView, nullable: true }) ownerDetails: MatrixUserDetailsView | null;
  @ApiProperty({ type: MatrixStatusView }) matrixStatus: MatrixStatusView;
  @ApiProperty({ type: MatrixSharingView }) matrixSharing: MatrixSharingView;
  @ApiProperty({ type: [MatrixAuthorityRoleView] }) matrixAuthorityRoles: MatrixAuthorityRoleView[];
  @ApiProperty({ type: [MatrixGroupView] }) matrixGroups: MatrixGroupView[];
  @ApiProperty({ type: [MatrixPositionView] }) matrixPositions: MatrixPositionView[];
  @ApiProperty({ type: [MatrixUserView] }) matrixUsers: MatrixUserView[];
  @ApiProperty({ type: [MatrixDecisionView] }) matrixDecisions: MatrixDecisionView[];
  @ApiProperty({ type: MatrixDelegationView }) matrixDelegation: MatrixDelegationView;
  @ApiProperty({ type: MatrixAuthorityFormattingView }) matrixAuthorityFormatting: MatrixAuthorityFormattingView;
  @ApiProperty({ type: MatrixExternalSharingView }) matrixExternalSharing: MatrixExternalSharingView;
}

/** The caller's saved view of a matrix (spec §2.13). */
export class MatrixUserViewView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) matrixId: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) viewData: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) createdOn: string;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
}

export class BulkReassignView {
  @ApiProperty() successCount: number;
  @ApiProperty() failureCount: number;
  @ApiProperty({ type: [String] }) successIds: string[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { '0199...': 'Matrix not found' } }) failures: Record<string, string>;
}

export class MatrixStatusCountsView {
  @ApiProperty() Active: number;
  @ApiProperty() Draft: number;
  @ApiProperty() Archived: number;
  @ApiProperty() all: number;
}

/** What applies to a matrix, and who holds it by relationship (the owner edits, shares and hands over their own matrix). */
export const MATRIX_PERMISSION_RULES: readonly PermissionRule[] = [
  { key: 'create:matrices' },
  { key: 'edit:matrices', grantedTo: ['owner'] },
  { key: 'share:matrices', grantedTo: ['owner'] },
  { key: 'change_owner:matrices', grantedTo: ['owner'] },
];

/** A row of the matrix view statement (matrix.sql.ts MATRIX_COLUMNS). */
export interface MatrixRow {
  id: string;
  tenant_id: string;
  matrix_display_id: string;
  matrix_name: string;
  matrix_description: string | null;
  role_matrix: boolean;
  authority_matrix: boolean;
  status_name: string;
  owner_id: string;
  copied_from: string | null;
  current_tab: string | null;
  created_on: string;
  updated_on: string;
  sharing_id: string;
  sharing_type: string;
  sharing_option: string;
  sharing_link: boolean;
  viewer_adjustable_filters: boolean;
  authority_roles: { authorityRoleId: string; isEnabled: boolean }[];
  delegation_filter: Partial<MatrixDelegationView>;
  formatting: Partial<MatrixAuthorityFormattingView>;
  ext_enabled: boolean;
  ext_expiration_enabled: boolean;
  ext_expiration_date: string | null;
  ext_password_required: boolean;
  ext_token: string | null;
  is_favorite: boolean;
  has_view: boolean;
  counts: { decisions: number; delegations: number; suspended: number; pending: number } | null;
  owner: MatrixUserDetailsView | null;
  sections: MatrixSectionView[];
  categories: MatrixCategoryView[];
  shared_users: MatrixSharingUserView[];
  shared_groups: MatrixSharingGroupView[];
  groups: MatrixGroupView[];
  positions: MatrixPositionView[];
  users: MatrixUserView[];
  decisions: MatrixDecisionView[];
}

export interface Links {
  appUrl: string;
  shareUrl: string;
}

export function toMatrixView(r: MatrixRow, caller: Pick<Caller, 'keys' | 'userId'>, links: Links): MatrixView {
  const f = r.delegation_filter ?? {};
  const fmt = r.formatting ?? {};
  return {
    id: r.id,
    matrixId: r.matrix_display_id,
    matrixName: r.matrix_name,
    matrixDescription: r.matrix_description,
    link: `${links.appUrl}/matrices/${r.id}`,
    roleMatrix: r.role_matrix,
    authorityMatrix: r.authority_matrix,
    tenantId: r.tenant_id,
    ownerId: r.owner_id,
    decisionCount: r.counts?.decisions ?? 0,
    delegationCount: r.counts?.delegations ?? 0,
    suspendedDelegationsCount: r.counts?.suspended ?? 0,
    pendingDelegationsCount: r.counts?.pending ?? 0,
    copiedFromMatrix: r.copied_from,
    createdOn: r.created_on,
    updatedOn: r.updated_on,
    currentTab: r.current_tab,
    isFavorite: r.is_favorite,
    isUserSavedPersonalView: r.has_view,
    permissions: recordPermissions(caller, MATRIX_PERMISSION_RULES, relationshipsOf(caller.userId, { owner: r.owner_id })),
    matrixSections: r.sections ?? [],
    matrixCategories: r.categories ?? [],
    ownerDetails: r.owner,
    matrixStatus: { ...statusByName(r.status_name) },
    matrixSharing: {
      id: r.sharing_id,
      type: r.sharing_type,
      sharingOption: r.sharing_option,
      link: r.sharing_link,
      viewerAdjustableFilters: r.viewer_adjustable_filters,
      externalSharing: r.ext_enabled,
      users: r.shared_users ?? [],
      groups: r.shared_groups ?? [],
    },
    matrixAuthorityRoles: (r.authority_roles ?? []).map((a) => ({ id: a.authorityRoleId, authorityRoleId: a.authorityRoleId, isEnabled: a.isEnabled })),
    matrixGroups: r.groups ?? [],
    matrixPositions: r.positions ?? [],
    matrixUsers: r.users ?? [],
    matrixDecisions: r.decisions ?? [],
    matrixDelegation: {
      authorityTypeIds: f.authorityTypeIds ?? [],
      delegationRole: f.delegationRole ?? false,
      roleIds: f.roleIds ?? [],
      issuanceStatusNames: f.issuanceStatusNames ?? [],
      primaryLimitTypes: f.primaryLimitTypes ?? {},
      delegationDataDetails: f.delegationDataDetails ?? false,
      delegationDataGroups: f.delegationDataGroups ?? false,
      delegationDataDocuments: f.delegationDataDocuments ?? false,
      delegationDataConditions: f.delegationDataConditions ?? false,
      delegationDataAuthorities: f.delegationDataAuthorities ?? false,
      delegationDataRoles: f.delegationDataRoles ?? false,
    },
    matrixAuthorityFormatting: {
      valueAbbrevations: fmt.valueAbbrevations ?? null,
      valueRounding: fmt.valueRounding ?? null,
      timeUnit: fmt.timeUnit ?? null,
      timeRounding: fmt.timeRounding ?? null,
      delegationIdentification: fmt.delegationIdentification ?? null,
      displayCurrencyCode: fmt.displayCurrencyCode ?? null,
    },
    matrixExternalSharing: {
      isEnabled: r.ext_enabled,
      isExpirationEnabled: r.ext_expiration_enabled,
      expirationDate: r.ext_expiration_date,
      isPasswordRequired: r.ext_password_required,
      link: r.ext_enabled && r.ext_token ? `${links.shareUrl}/${r.ext_token}` : null,
      token: r.ext_enabled ? r.ext_token : null,
    },
  };
}
