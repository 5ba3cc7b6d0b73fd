/** Pure rules of matrices: count ranges, `select`, the ids a body names, the body a PATCH makes. No I/O. */
import { statusByName } from '../core/matrix-status.rules';
import type {
  MatrixAuthorityFormattingDto,
  MatrixAuthorityRoleDto,
  MatrixChangeDto,
  MatrixDelegationDto,
  MatrixPatchDto,
  MatrixSharingDto,
} from './dto/matrix-change.dto';
import { MATRIX_PATCH_FIELDS } from './dto/matrix-change.dto';

/** A count range of the search: minValue and maxValue as numbers (null = no bound; "Unlimited" as maxValue = no upper bound). */
export interface CountRange {
  min: number | null;
  max: number | null;
}

/** The bounds of `{ minValue, maxValue }` compared as numbers; null when the range is empty or absent. */
export function countRange(range: { minValue?: string; maxValue?: string } | undefined): CountRange | null {
  if (!range) return null;
  const min = range.minValue === undefined || range.minValue === '' ? null : Number(range.minValue);
  const max = range.maxValue === undefined || range.maxValue === '' || /^unlimited$/i.test(range.maxValue) ? null : Number(range.maxValue);
  if (min === null && max === null) return null;
  return { min, max };
}

/** The fields of a search item `select` may name. */
export const MATRIX_ITEM_FIELDS = [
  'id', 'matrixId', 'matrixName', 'matrixDescription', 'link', 'roleMatrix', 'authorityMatrix', 'tenantId', 'ownerId', 'decisionCount',
  'delegationCount', 'suspendedDelegationsCount', 'pendingDelegationsCount', 'copiedFromMatrix', 'createdOn', 'updatedOn', 'currentTab',
  'isFavorite', 'isUserSavedPersonalView', 'permissions', 'matrixSections', 'matrixCategories', 'ownerDetails', 'matrixStatus', 'matrixSharing',
  'matrixAuthorityRoles', 'matrixGroups', 'matrixPositions', 'matrixUsers', 'matrixDecisions', 'matrixDelegation', 'matrixAuthorityFormatting',
  'matrixExternalSharing',
] as const;

/** The names of `select` (comma-separated) that are not fields of an item. */
export function unknownSelectFields(select: string): string[] {
  const known = new Set<string>(MATRIX_ITEM_FIELDS);
  return selectFields(select).filter((f) => !known.has(f));
}

export function selectFields(select: string | undefined): string[] {
  return (select ?? '').split(',').map((f) => f.trim()).filter((f) => f !== '');
}

/** Only the named fields of an item; none named = the whole item. */
export function pick<T extends object>(item: T, fields: readonly string[]): Partial<T> {
  if (!fields.length) return item;
  return Object.fromEntries(fields.map((f) => [f, (item as Record<string, unknown>)[f]])) as Partial<T>;
}

/** The kinds of record a matrix names, each read from this area's copy of it. */
export type MatrixRefKind = 'user' | 'group' | 'position' | 'section' | 'category' | 'decision' | 'authority_type' | 'decision_role' | 'matrix';

/** One id a matrix body names: where (`groupIds.0`), what kind of record, and the id (lower case). */
export interface MatrixRef {
  field: string;
  kind: MatrixRefKind;
  id: string;
}

/** What of a matrix body names records (the shape of MatrixFieldsDto, as far as ids go). */
export interface MatrixRefFields {
  ownerId?: string;
  copiedFromMatrix?: string | null;
  sectionIds?: string[];
  categoryIds?: string[];
  groupIds?: string[];
  positionIds?: string[];
  userIds?: string[];
  matrixDecisions?: { decisionId: string }[];
  matrixAuthorityRoles?: { authorityRoleId: string }[];
  matrixDelegation?: { authorityTypeIds?: string[]; roleIds?: string[] };
  matrixSharing?: { userIds?: string[]; groupIds?: string[] };
}

/** Every id a matrix body names, each with the field that carried it, in the body's order. */
export function matrixRefs(body: MatrixRefFields): MatrixRef[] {
  const refs: MatrixRef[] = [];
  const one = (field: string, kind: MatrixRefKind, id: string | null | undefined) => {
    if (id) refs.push({ field, kind, id: id.toLowerCase() });
  };
  const each = (field: string, kind: MatrixRefKind, ids: readonly string[] | undefined) => (ids ?? []).forEach((id, i) => one(`${field}.${i}`, kind, id));
  one('ownerId', 'user', body.ownerId);
  one('copiedFromMatrix', 'matrix', body.copiedFromMatrix);
  each('sectionIds', 'section', body.sectionIds);
  each('categoryIds', 'category', body.categoryIds);
  each('groupIds', 'group', body.groupIds);
  each('positionIds', 'position', body.positionIds);
  each('userIds', 'user', body.userIds);
  (body.matrixDecisions ?? []).forEach((d, i) => one(`matrixDecisions.${i}.decisionId`, 'decision', d.decisionId));
  (body.matrixAuthorityRoles ?? []).forEach((r, i) => one(`matrixAuthorityRoles.${i}.authorityRoleId`, 'decision_role', r.authorityRoleId));
  each('matrixDelegation.authorityTypeIds', 'authority_type', body.matrixDelegation?.authorityTypeIds);
  each('matrixDelegation.roleIds', 'decision_role', body.matrixDelegation?.roleIds);
  each('matrixSharing.userIds', 'user', body.matrixSharing?.userIds);
  each('matrixSharing.groupIds', 'group', body.matrixSharing?.groupIds);
  return refs;
}

const WHAT: Record<MatrixRefKind, string> = {
  user: 'User',
  group: 'Group',
  position: 'Position',
  section: 'Decision section',
  category: 'Decision category',
  decision: 'Decision',
  authority_type: 'Authority type',
  decision_role: 'Decision role',
  matrix: 'Matrix',
};

/** The ids of each kind to look up, once each. */
export function refIdsByKind(refs: readonly MatrixRef[]): Record<MatrixRefKind, string[]> {
  const kinds = Object.keys(WHAT) as MatrixRefKind[];
  return Object.fromEntries(kinds.map((k) => [k, [...new Set(refs.filter((r) => r.kind === k).map((r) => r.id))]])) as Record<MatrixRefKind, string[]>;
}

/** A problem for each ref not among those found live (`kind:id`), naming its field. */
export function unknownRefs(refs: readonly MatrixRef[], found: ReadonlySet<string>): { field: string; message: string }[] {
  return refs
    .filter((r) => !found.has(`${r.kind}:${r.id}`))
    .map((r) => ({ field: r.field, message: r.kind === 'user' ? `User ${r.id} is not a member of the tenant` : `${WHAT[r.kind]} ${r.id} not found` }));
}

/** A matrix as stored (the columns a change reads: STORED_COLUMNS). */
export interface StoredMatrix {
  matrix_name: string;
  matrix_description: string | null;
  role_matrix: boolean;
  authority_matrix: boolean;
  status_name: string;
  owner_id: string;
  copied_from: string | null;
  current_tab: string | null;
  sharing_type: string;
  sharing_option: string;
  sharing_link: boolean;
  viewer_adjustable_filters: boolean;
  shared_user_ids: string[];
  shared_group_ids: string[];
  section_ids: string[];
  category_ids: string[];
  group_ids: string[];
  position_ids: string[];
  user_ids: string[];
  decision_ids: string[];
  disabled_decision_ids: string[];
  authority_roles: MatrixAuthorityRoleDto[];
  delegation_filter: MatrixDelegationDto;
  formatting: MatrixAuthorityFormattingDto;
  ext_enabled: boolean;
  ext_expiration_enabled: boolean;
  ext_expiration_date: string | null;
  ext_password_required: boolean;
}

/**
 * The stored matrix as the full body that would leave it as it is (PUT's shape). The external link
 * carries no password: a change keeps the stored hash while the link stays enabled.
 */
export function storedBody(m: StoredMatrix): MatrixChangeDto {
  const disabled = new Set(m.disabled_decision_ids);
  return {
    matrixName: m.matrix_name,
    ownerId: m.owner_id,
    matrixDescription: m.matrix_description,
    roleMatrix: m.role_matrix,
    authorityMatrix: m.authority_matrix,
    matrixStatusId: statusByName(m.status_name).id,
    currentTab: m.current_tab,
    copiedFromMatrix: m.copied_from,
    sectionIds: m.section_ids,
    categoryIds: m.category_ids,
    groupIds: m.group_ids,
    positionIds: m.position_ids,
    userIds: m.user_ids,
    matrixDecisions: m.decision_ids.map((decisionId) => ({ decisionId, isDisabled: disabled.has(decisionId) })),
    matrixAuthorityRoles: m.authority_roles ?? [],
    matrixDelegation: m.delegation_filter ?? {},
    matrixAuthorityFormatting: m.formatting ?? {},
    matrixSharing: {
      type: m.sharing_type as MatrixSharingDto['type'],
      sharingOption: m.sharing_option as MatrixSharingDto['sharingOption'],
      userIds: m.shared_user_ids,
      groupIds: m.shared_group_ids,
      link: m.sharing_link,
      viewerAdjustableFilters: m.viewer_adjustable_filters,
    },
    matrixExternalSharing: {
      isEnabled: m.ext_enabled,
      isExpirationEnabled: m.ext_expiration_enabled,
      expirationDate: m.ext_expiration_date,
      isPasswordRequired: m.ext_password_required,
    },
  };
}

/** The full body after a PATCH: the stored one with each field the patch names replaced (objects whole; null clears a nullable field). */
export function patchedBody(stored: MatrixChangeDto, patch: MatrixPatchDto): MatrixChangeDto {
  const next: Record<string, unknown> = { ...stored };
  for (const field of MATRIX_PATCH_FIELDS) if (patch[field] !== undefined) next[field] = patch[field];
  return next as unknown as MatrixChangeDto;
}
