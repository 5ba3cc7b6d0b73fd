import { eventKindOf as kindOf, namesAChange as namesAnyOf } from '../core/change.rules';

/** The rules of decision categories that need no database; unit-tested in decision-categories.spec.ts. */

export const DECISION_CATEGORY_SORTS = ['categoryName', 'createdAt'] as const;
export type DecisionCategorySort = (typeof DECISION_CATEGORY_SORTS)[number];

export const DECISION_CATEGORY_NAME_MAX = 50;

/** The fields a PATCH may change; an update naming none of them is a 400. */
export const DECISION_CATEGORY_UPDATE_FIELDS = ['categoryName', 'sectionId', 'isDeleted'] as const;

export interface DecisionCategoryChange {
  categoryName?: string;
  /** null takes the category out of its section. */
  sectionId?: string | null;
  isDeleted?: boolean;
}

/** True when the change names a field it may change: `sectionId: null` is one; `isDeleted: false` alone is not. */
export function namesAChange(change: DecisionCategoryChange): boolean {
  return namesAnyOf(change, DECISION_CATEGORY_UPDATE_FIELDS);
}

/** Which event a change publishes: deleting wins over the other fields changed with it. */
export function eventKindOf(change: DecisionCategoryChange): 'updated' | 'deleted' {
  return kindOf(change);
}
