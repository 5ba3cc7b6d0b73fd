import { ApiProperty } from '@nestjs/swagger';
import { GroupTypePayload, RECORD_STATUSES, viewFields } from '@ddm/contracts';

/** A group type as Aptly's public API answers it. */
export class GroupTypeView {
  @ApiProperty() id: string;
  @ApiProperty() tenantId: string;
  @ApiProperty({ example: 'Department' }) groupTypeName: string;
  @ApiProperty({ description: 'false for a type that cannot be disabled (Organizations)' }) shouldAllowEnableDisable: boolean;
  @ApiProperty() addressEnabled: boolean;
  @ApiProperty({ description: 'One of the three types every tenant starts with' }) isDefault: boolean;
  @ApiProperty({ enum: ['KEEP_ASSOCIATIONS', 'REMOVE_ASSOCIATIONS', 'NA'] }) disableOption: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ enum: RECORD_STATUSES }) status: string;
  @ApiProperty({ nullable: true, type: String }) createdBy: string | null;
  @ApiProperty() createdOn: string;
  @ApiProperty() updatedOn: string;
  @ApiProperty({ nullable: true, type: String }) updatedBy: string | null;
}

export interface GroupTypeRow {
  id: string;
  tenant_id: string;
  group_type_name: string;
  should_allow_enable_disable: boolean;
  address_enabled: boolean;
  is_default: boolean;
  disable_option: string;
  is_deleted: boolean;
  status: string;
  created_by: string | null;
  created_on: string;
  updated_on: string;
  updated_by: string | null;
}

export function toGroupTypeView(r: GroupTypeRow): GroupTypeView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    groupTypeName: r.group_type_name,
    shouldAllowEnableDisable: r.should_allow_enable_disable,
    addressEnabled: r.address_enabled,
    isDefault: r.is_default,
    disableOption: r.disable_option,
    isDeleted: r.is_deleted,
    status: r.status,
    createdBy: r.created_by,
    createdOn: r.created_on,
    updatedOn: r.updated_on,
    updatedBy: r.updated_by,
  };
}

export function toGroupTypePayload(r: GroupTypeRow): GroupTypePayload {
  return {
    id: r.id,
    groupTypeName: r.group_type_name,
    status: r.status,
    isDefault: r.is_default,
    addressEnabled: r.address_enabled,
    isDeleted: r.is_deleted,
  };
}

/** Every field of the view: what `select` may name. */
export const GROUP_TYPE_FIELDS = viewFields<GroupTypeView>({ id: true, tenantId: true, groupTypeName: true, shouldAllowEnableDisable: true, addressEnabled: true, isDefault: true, disableOption: true, isDeleted: true, status: true, createdBy: true, createdOn: true, updatedOn: true, updatedBy: true });
