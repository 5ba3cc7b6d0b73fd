import type { RecordStatus } from '@ddm/contracts';
import { eventKindOf as kindOf, namesAChange as namesAnyOf } from '../core/change.rules';

/** The rules of document types that need no database; unit-tested in document-types.spec.ts. */

export const DOCUMENT_TYPE_SORTS = ['documentTypeName', 'createdAt'] as const;
export type DocumentTypeSort = (typeof DOCUMENT_TYPE_SORTS)[number];

export const DOCUMENT_TYPE_NAME_MAX = 150;
export const DOCUMENT_TYPE_ICON_MAX = 150;

/** The types every tenant starts with, in this order. They may be renamed, given an icon or deactivated, never deleted. */
export const DEFAULT_DOCUMENT_TYPES = ['Policy', 'Procedure', 'Charter', 'Resolution', 'Contract'] as const;

/** The fields a PATCH may change; an update naming none of them is a 400. */
export const DOCUMENT_TYPE_UPDATE_FIELDS = ['documentTypeName', 'documentTypeIcon', 'status', 'isDeleted'] as const;

export interface DocumentTypeChange {
  documentTypeName?: string;
  /** null clears the icon. */
  documentTypeIcon?: string | null;
  status?: RecordStatus;
  isDeleted?: boolean;
}

/** True when the change names a field it may change: `documentTypeIcon: null` is one; `isDeleted: false` alone is not. */
export function namesAChange(change: DocumentTypeChange): boolean {
  return namesAnyOf(change, DOCUMENT_TYPE_UPDATE_FIELDS);
}

/** Why a change is refused with a 409 (null = allowed): the default types are never deleted. */
export function documentTypeChangeProblem(type: { documentTypeName: string; isDefault: boolean }, change: DocumentTypeChange): string | null {
  if (change.isDeleted === true && type.isDefault) return `The document type "${type.documentTypeName}" is a default type and cannot be deleted`;
  return null;
}

/** Which event a change publishes: deleting wins over the other fields changed with it. */
export function eventKindOf(change: DocumentTypeChange): 'updated' | 'deleted' {
  return kindOf(change);
}
