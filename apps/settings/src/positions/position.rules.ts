import { RECORD_STATUSES } from '@ddm/contracts';

/** The rules of positions that need no database; unit-tested in positions.spec.ts. */

/** The fields of a position (spec §2.6), in the order they are answered; `select` names a subset. */
export const POSITION_FIELDS = [
  'id',
  'tenantId',
  'positionId',
  'positionName',
  'isSCIMProvisioned',
  'status',
  'isDeleted',
  'createdOn',
  'updatedOn',
  'delegationsReceived',
  'delegationsIssued',
  'externalId',
  'instanceId',
  'groups',
] as const;
export type PositionField = (typeof POSITION_FIELDS)[number];

export const POSITION_SORTS = ['positionName', 'positionId', 'status', 'createdOn', 'updatedOn'] as const;
export type PositionSort = (typeof POSITION_SORTS)[number];

/** `sourceType`: Manual = not SCIM-provisioned, Directory Sync = SCIM-provisioned, All = both. */
export const SOURCE_TYPES = ['All', 'Manual', 'Directory Sync'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** Most items a comma list of the positions list takes. */
export const MAX_LIST_ITEMS = 100;
/** Most ids a bulk change (status, delete) takes. */
export const MAX_BULK_IDS = 500;
/** Most groups one position may be linked to. */
export const MAX_POSITION_GROUPS = 100;

/**
 * What `sourceType` asks of `is_scim_provisioned`: true, false, or null for no filter
 * (nothing given, `All` named, or both Manual and Directory Sync named).
 */
export function scimFilter(sourceTypes: readonly string[] | undefined): boolean | null {
  if (!sourceTypes?.length || sourceTypes.includes('All')) return null;
  const manual = sourceTypes.includes('Manual');
  const synced = sourceTypes.includes('Directory Sync');
  if (manual === synced) return null;
  return synced;
}

/** The one status to filter by, or null when none or every status is named (the index then serves the sort). */
export function statusFilter(statuses: readonly string[] | undefined): string | null {
  const wanted = new Set(statuses ?? []);
  if (wanted.size === 0 || RECORD_STATUSES.every((s) => wanted.has(s))) return null;
  return [...wanted][0];
}

/** The fields to answer: `select` wins over the deprecated `fields`; null = every field. */
export function chosenFields(select: readonly string[] | undefined, fields: readonly string[] | undefined): PositionField[] | null {
  const chosen = select?.length ? select : fields?.length ? fields : null;
  if (!chosen) return null;
  return POSITION_FIELDS.filter((f) => chosen.includes(f));
}

/** Unique ids, lower case, in the order given. */
export function uniqueIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((x) => x.toLowerCase()))];
}
