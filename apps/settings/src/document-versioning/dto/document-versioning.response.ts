import { ApiProperty } from '@nestjs/swagger';
import { viewFields } from '@ddm/contracts';
import { VERSIONING_FIELD_TYPES } from '../document-versioning.rules';

/** A document versioning field (Version Number, Effective Date, Review Date, then the tenant's own): what a document's version records. */
export class DocumentVersioningFieldView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 150, example: 'Version Number' }) fieldName: string;
  @ApiProperty({ enum: VERSIONING_FIELD_TYPES, example: 'string' }) fieldType: string;
  @ApiProperty({ description: 'Whether the field is in use (the product answers a boolean)' }) status: boolean;
  @ApiProperty({ description: 'One of the fields every tenant starts with' }) isDefault: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) updatedAt: string;
}

export interface DocumentVersioningFieldRow {
  id: string;
  tenant_id: string;
  field_name: string;
  field_type: string;
  status: boolean;
  is_default: boolean;
  is_deleted: boolean;
  created_at: string;
  updated_at: string;
}

export function toDocumentVersioningFieldView(r: DocumentVersioningFieldRow): DocumentVersioningFieldView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    fieldName: r.field_name,
    fieldType: r.field_type,
    status: r.status,
    isDefault: r.is_default,
    isDeleted: r.is_deleted,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Every field of the view: what `select` may name. */
export const DOCUMENT_VERSIONING_FIELDS = viewFields<DocumentVersioningFieldView>({
  id: true,
  tenantId: true,
  fieldName: true,
  fieldType: true,
  status: true,
  isDefault: true,
  isDeleted: true,
  createdAt: true,
  updatedAt: true,
});
