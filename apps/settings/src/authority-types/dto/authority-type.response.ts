import { ApiProperty } from '@nestjs/swagger';
import { AuthorityTypePayload, RECORD_STATUSES, viewFields } from '@ddm/contracts';

/** An authority type (Approval, Signatory, ...): what a decision's authorities are of. */
export class AuthorityTypeView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 50, example: 'Approval', description: "The type's name, unique in the tenant (case-insensitive)" }) authorityType: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 100, example: 'check-circle' }) authorityTypeIcon: string | null;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'Place among the tenant’s types (lists sort by it unless sortBy says otherwise)' })
  authorityTypeOrder: number;
  @ApiProperty({ enum: RECORD_STATUSES }) status: string;
  @ApiProperty({ description: 'One of the types every tenant starts with (Approval, Signatory): never deleted' }) isDefault: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) updatedAt: string;
}

export interface AuthorityTypeRow {
  id: string;
  tenant_id: string;
  authority_type: string;
  authority_type_icon: string | null;
  authority_type_order: number;
  status: string;
  is_default: boolean;
  is_deleted: boolean;
  created_at: string;
  updated_at: string;
}

export function toAuthorityTypeView(r: AuthorityTypeRow): AuthorityTypeView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    authorityType: r.authority_type,
    authorityTypeIcon: r.authority_type_icon,
    authorityTypeOrder: r.authority_type_order,
    status: r.status,
    isDefault: r.is_default,
    isDeleted: r.is_deleted,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The type as evt.settings.authority-type.* carries it. */
export function toAuthorityTypePayload(v: AuthorityTypeView): AuthorityTypePayload {
  return {
    id: v.id,
    authorityType: v.authorityType,
    authorityTypeIcon: v.authorityTypeIcon,
    authorityTypeOrder: v.authorityTypeOrder,
    status: v.status,
    isDefault: v.isDefault,
    isDeleted: v.isDeleted,
  };
}

/** Every field of the view: what `select` may name. */
export const AUTHORITY_TYPE_FIELDS = viewFields<AuthorityTypeView>({ id: true, tenantId: true, authorityType: true, authorityTypeIcon: true, authorityTypeOrder: true, status: true, isDefault: true, isDeleted: true, createdAt: true, updatedAt: true });
