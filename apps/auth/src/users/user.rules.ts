/**
 * The users area's rules that need no database: checked by the DTOs and the services, unit-tested
 * in users.spec.ts.
 */

export const USER_STATUSES = ['ACTIVE', 'INACTIVE', 'INVITED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
/** What bulk-status-update may set; DELETED is a soft delete of the membership. */
export const STATUS_CHANGES = [...USER_STATUSES, 'DELETED'] as const;
export type StatusChange = (typeof STATUS_CHANGES)[number];

export const USER_SORTS = ['name', 'email', 'createdOn', 'lastLoginDate'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** A user cannot report to themselves, directly or through a chain of managers. */
export function managerProblem(userId: string, managerId: string | null, chainAboveManager: readonly string[]): string | null {
  if (!managerId) return null;
  if (managerId === userId) return 'a user cannot be their own manager';
  if (chainAboveManager.includes(userId)) return 'would make a reporting cycle';
  return null;
}
