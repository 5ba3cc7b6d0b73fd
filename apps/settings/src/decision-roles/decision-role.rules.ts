import type { RecordStatus } from '@ddm/contracts';
import { eventKindOf as kindOf, namesAChange as namesAnyOf } from '../core/change.rules';

/** The rules of decision roles that need no database; unit-tested in decision-roles.spec.ts. */

export const DECISION_ROLE_SORTS = ['roleName', 'createdOn', 'updatedOn'] as const;
export type DecisionRoleSort = (typeof DECISION_ROLE_SORTS)[number];

export const DECISION_ROLE_NAME_MAX = 50;

/** The fields a PATCH may change; an update naming none of them is a 400. */
export const DECISION_ROLE_UPDATE_FIELDS = ['roleName', 'status', 'isDeleted'] as const;

export interface DecisionRoleChange {
  roleName?: string;
  status?: RecordStatus;
  isDeleted?: boolean;
}

/** True when the change names at least one field it may change (`isDeleted: false` alone changes nothing: it is not a change). */
export function namesAChange(change: DecisionRoleChange): boolean {
  return namesAnyOf(change, DECISION_ROLE_UPDATE_FIELDS);
}

/** Which event a change publishes: deleting wins over the other fields changed with it. */
export function eventKindOf(change: DecisionRoleChange): 'updated' | 'deleted' {
  return kindOf(change);
}
