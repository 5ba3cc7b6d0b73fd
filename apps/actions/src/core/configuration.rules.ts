/**
 * The keys every folder of the actions area speaks of: a tenant's action statuses and priorities
 * (their order, the ranks the sorts use) and the ids of its defaults, derived from the tenant and
 * the key (the same on every replica and in every area). Pure; unit-tested in core.spec.ts.
 */
import { actionDefaultId } from '@ddm/contracts';

/** The statuses' stable keys, in their order (the `status` sort follows it). */
export const STATUS_KEYS = ['TODO', 'IN_PROGRESS', 'COMPLETED', 'CANCELED', 'OVERDUE'] as const;
export type StatusKey = (typeof STATUS_KEYS)[number];

/** Statuses of an action someone still has to work on (the overdue sweep moves these). */
export const OPEN_STATUS_KEYS: readonly StatusKey[] = ['TODO', 'IN_PROGRESS'];
/** Statuses of an action not settled yet: open, or overdue. */
export const UNSETTLED_STATUS_KEYS: readonly StatusKey[] = ['TODO', 'IN_PROGRESS', 'OVERDUE'];
/** The status key an action moves to when its cause is settled. */
export type SettledKey = Extract<StatusKey, 'COMPLETED' | 'CANCELED'>;

/** The priorities' stable keys, lowest first (the `priority` sort follows it). */
export const PRIORITY_KEYS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type PriorityKey = (typeof PRIORITY_KEYS)[number];

/** The id of one of the tenant's default statuses (To Do, Completed, ...). */
export const statusIdOf = (tenantId: string, key: StatusKey) => actionDefaultId(tenantId, 'status', key);
/** The id of one of the tenant's default priorities. */
export const priorityIdOf = (tenantId: string, key: PriorityKey) => actionDefaultId(tenantId, 'priority', key);

/** The rank of a status in the `status` sort (To Do 1 .. Overdue 5; 0 for a key that is none of them). */
export const statusRank = (key: string) => STATUS_KEYS.indexOf(key as StatusKey) + 1;
/** The rank of a priority in the `priority` sort (Low 1 .. Critical 4; 0 for a key that is none of them). */
export const priorityRank = (key: string) => PRIORITY_KEYS.indexOf(key as PriorityKey) + 1;
