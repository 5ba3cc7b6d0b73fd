/** Pure rules of matrices: count ranges, `select`. No I/O. */

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
