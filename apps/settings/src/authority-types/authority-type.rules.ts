import type { RecordStatus } from '@ddm/contracts';
import { eventKindOf as kindOf, namesAChange as namesAnyOf } from '../core/change.rules';

/** The rules of authority types that need no database; unit-tested in authority-types.spec.ts. */

export const AUTHORITY_TYPE_SORTS = ['authorityTypeOrder', 'authorityType', 'createdAt'] as const;
export type AuthorityTypeSort = (typeof AUTHORITY_TYPE_SORTS)[number];

export const AUTHORITY_TYPE_NAME_MAX = 50;
export const AUTHORITY_TYPE_ICON_MAX = 100;
/** Largest `authorityTypeOrder` a request may set (the column is an integer; orders are small in practice). */
export const AUTHORITY_TYPE_ORDER_MAX = 1_000_000;

export interface DefaultAuthorityType {
  systemKey: 'APPROVAL' | 'SIGNATORY';
  authorityType: string;
  authorityTypeOrder: number;
}

/** The types every tenant starts with, in this order. They may be renamed, reordered, given an icon or deactivated, never deleted. */
export const DEFAULT_AUTHORITY_TYPES: readonly DefaultAuthorityType[] = [
  { systemKey: 'APPROVAL', authorityType: 'Approval', authorityTypeOrder: 1 },
  { systemKey: 'SIGNATORY', authorityType: 'Signatory', authorityTypeOrder: 2 },
];

/** The fields a PATCH may change; an update naming none of them is a 400. */
export const AUTHORITY_TYPE_UPDATE_FIELDS = ['authorityType', 'authorityTypeIcon', 'authorityTypeOrder', 'status', 'isDeleted'] as const;

export interface AuthorityTypeChange {
  authorityType?: string;
  /** null clears the icon. */
  authorityTypeIcon?: string | null;
  authorityTypeOrder?: number;
  status?: RecordStatus;
  isDeleted?: boolean;
}

/** True when the change names a field it may change: `authorityTypeIcon: null` is one; `isDeleted: false` alone is not. */
export function namesAChange(change: AuthorityTypeChange): boolean {
  return namesAnyOf(change, AUTHORITY_TYPE_UPDATE_FIELDS);
}

/** Why a change is refused with a 409 (null = allowed): the default types are never deleted. */
export function authorityTypeChangeProblem(type: { authorityType: string; isDefault: boolean }, change: AuthorityTypeChange): string | null {
  if (change.isDeleted === true && type.isDefault) return `The authority type "${type.authorityType}" is a default type and cannot be deleted`;
  return null;
}

/** The order of a type created without one: after the last of the tenant's types (1 when there is none). */
export function orderAfter(lastOrder: number | null): number {
  return (lastOrder ?? 0) + 1;
}

/** Which event a change publishes: deleting wins over the other fields changed with it. */
export function eventKindOf(change: AuthorityTypeChange): 'updated' | 'deleted' {
  return kindOf(change);
}
