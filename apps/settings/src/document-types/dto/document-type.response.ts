import { ApiProperty } from '@nestjs/swagger';
import { DocumentTypePayload, RECORD_STATUSES, viewFields } from '@ddm/contracts';

/** A document type (Policy, Procedure, Charter, Resolution, Contract, then the tenant's own): what a document is of. */
export class DocumentTypeView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 150, example: 'Policy', description: "The type's name, unique in the tenant (case-insensitive)" }) documentTypeName: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 150, example: 'file-text' }) documentTypeIcon: string | null;
  @ApiProperty({ enum: RECORD_STATUSES }) status: string;
  @ApiProperty({ description: 'One of the types every tenant starts with: never deleted' }) isDefault: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) updatedAt: string;
}

export interface DocumentTypeRow {
  id: string;
  tenant_id: string;
  document_type_name: string;
  document_type_icon: string | null;
  status: string;
  is_default: boolean;
  is_deleted: boolean;
  created_at: string;
  updated_at: string;
}

export function toDocumentTypeView(r: DocumentTypeRow): DocumentTypeView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    documentTypeName: r.document_type_name,
    documentTypeIcon: r.document_type_icon,
    status: r.status,
    isDefault: r.is_default,
    isDeleted: r.is_deleted,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The type as evt.settings.document-type.* carries it. */
export function toDocumentTypePayload(v: DocumentTypeView): DocumentTypePayload {
  return { id: v.id, documentTypeName: v.documentTypeName, documentTypeIcon: v.documentTypeIcon, status: v.status, isDefault: v.isDefault, isDeleted: v.isDeleted };
}

/** Every field of the view: what `select` may name. */
export const DOCUMENT_TYPE_FIELDS = viewFields<DocumentTypeView>({ id: true, tenantId: true, documentTypeName: true, documentTypeIcon: true, status: true, isDefault: true, isDeleted: true, createdAt: true, updatedAt: true });
