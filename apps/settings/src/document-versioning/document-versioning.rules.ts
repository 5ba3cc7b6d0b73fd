/** The rules of document versioning fields that need no database; unit-tested in document-versioning.spec.ts. */

export const VERSIONING_FIELD_SORTS = ['fieldName', 'fieldType', 'createdAt', 'updatedAt'] as const;
export type VersioningFieldSort = (typeof VERSIONING_FIELD_SORTS)[number];

export const VERSIONING_FIELD_TYPES = ['string', 'date', 'number', 'boolean'] as const;
export type VersioningFieldType = (typeof VERSIONING_FIELD_TYPES)[number];

/** The fields every tenant starts with, in this order (each with its system key). */
export const DEFAULT_VERSIONING_FIELDS: readonly { key: string; fieldName: string; fieldType: VersioningFieldType }[] = [
  { key: 'VERSION_NUMBER', fieldName: 'Version Number', fieldType: 'string' },
  { key: 'EFFECTIVE_DATE', fieldName: 'Effective Date', fieldType: 'date' },
  { key: 'REVIEW_DATE', fieldName: 'Review Date', fieldType: 'date' },
];
