import { ApiProperty } from '@nestjs/swagger';
import { RECORD_STATUSES, viewFields } from '@ddm/contracts';

export class GroupTypeRefView {
  @ApiProperty() id: string;
  @ApiProperty() groupTypeName: string;
}

export class GroupTenantGroupTypeView {
  @ApiProperty() id: string;
  @ApiProperty() groupTypeName: string;
  @ApiProperty() shouldAllowEnableDisable: boolean;
  @ApiProperty() isDefault: boolean;
  @ApiProperty({ enum: ['KEEP_ASSOCIATIONS', 'REMOVE_ASSOCIATIONS', 'NA'] }) disableOption: string;
}

export class GroupAddressView {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'Record id of the group' }) groupId: string;
  @ApiProperty({ nullable: true, type: String }) street1: string | null;
  @ApiProperty({ nullable: true, type: String }) street2: string | null;
  @ApiProperty({ nullable: true, type: String }) city: string | null;
  @ApiProperty({ nullable: true, type: String }) state: string | null;
  @ApiProperty({ nullable: true, type: String }) stateCode: string | null;
  @ApiProperty({ nullable: true, type: String }) zipCode: string | null;
  @ApiProperty({ nullable: true, type: String }) country: string | null;
  @ApiProperty({ nullable: true, type: String }) countryCode: string | null;
  @ApiProperty() createdOn: string;
  @ApiProperty() updatedOn: string;
}

export class ParentGroupSummaryView {
  @ApiProperty() id: string;
  @ApiProperty() tenantId: string;
  @ApiProperty({ description: 'Short code' }) groupId: string;
  @ApiProperty() groupName: string;
  @ApiProperty({ nullable: true, type: String }) displayName: string | null;
  @ApiProperty({ nullable: true, type: String }) legalName: string | null;
  @ApiProperty() status: string;
  @ApiProperty({ type: GroupTypeRefView }) tenantGroupType: GroupTypeRefView;
}

export class ParentGroupLinkView {
  @ApiProperty({ description: 'Id of the link' }) id: string;
  @ApiProperty({ description: 'Record id of the parent group' }) parentId: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: ParentGroupSummaryView }) parentGroup: ParentGroupSummaryView;
}

export class ChildGroupView {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'Short code' }) groupId: string;
  @ApiProperty() groupName: string;
  @ApiProperty({ nullable: true, type: String }) displayName: string | null;
  @ApiProperty() status: string;
  @ApiProperty({ type: GroupTypeRefView }) tenantGroupType: GroupTypeRefView;
}

/** Group (spec §2.5), with its direct children. */
export class GroupView {
  @ApiProperty() id: string;
  @ApiProperty() tenantId: string;
  @ApiProperty({ description: 'Short code (6 upper-case letters and digits)', example: 'DRDWRQ' }) groupId: string;
  @ApiProperty() groupName: string;
  @ApiProperty({ nullable: true, type: String }) displayName: string | null;
  @ApiProperty({ nullable: true, type: String }) legalName: string | null;
  @ApiProperty({ enum: RECORD_STATUSES }) status: string;
  @ApiProperty() createdOn: string;
  @ApiProperty() updatedOn: string;
  @ApiProperty() isSynced: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ enum: ['KEEP_ASSOCIATIONS', 'REMOVE_ASSOCIATIONS', 'NA'] }) disableOption: string;
  @ApiProperty({ description: 'ISO 4217 code, "" when not set' }) baseCurrency: string;
  @ApiProperty({ nullable: true, type: String }) externalId: string | null;
  @ApiProperty({ nullable: true, type: String }) instanceId: string | null;
  @ApiProperty({ description: 'Distinct decisions of the delegations that are not revoked and name the group' }) decisionsCount: number;
  @ApiProperty({ description: 'Delegations that are not revoked and name the group' }) delegationsCount: number;
  @ApiProperty({ type: GroupTenantGroupTypeView }) tenantGroupType: GroupTenantGroupTypeView;
  @ApiProperty({ type: GroupAddressView, nullable: true }) address: GroupAddressView | null;
  @ApiProperty({ type: [ParentGroupLinkView], description: 'Parents that are not deleted' }) parentGroups: ParentGroupLinkView[];
  @ApiProperty({ type: [ChildGroupView], description: 'Direct children that are not deleted' }) childGroups: ChildGroupView[];
}

export interface GroupRow {
  id: string;
  tenant_id: string;
  group_code: string;
  group_name: string;
  display_name: string | null;
  legal_name: string | null;
  status: string;
  created_on: string;
  updated_on: string;
  is_synced: boolean;
  is_deleted: boolean;
  disable_option: string;
  base_currency: string | null;
  external_id: string | null;
  instance_id: string | null;
  type_id: string;
  group_type_name: string;
  should_allow_enable_disable: boolean;
  type_is_default: boolean;
  type_disable_option: string;
  address_id: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  state_code: string | null;
  zip_code: string | null;
  country: string | null;
  country_code: string | null;
  address_created_on: string | null;
  address_updated_on: string | null;
  delegations_count: string | number;
  decisions_count: string | number;
  parent_groups: ParentGroupLinkView[] | null;
  child_groups: ChildGroupView[] | null;
}

export function toGroupView(r: GroupRow): GroupView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    groupId: r.group_code,
    groupName: r.group_name,
    displayName: r.display_name,
    legalName: r.legal_name,
    status: r.status,
    createdOn: r.created_on,
    updatedOn: r.updated_on,
    isSynced: r.is_synced,
    isDeleted: r.is_deleted,
    disableOption: r.disable_option,
    baseCurrency: r.base_currency ?? '',
    externalId: r.external_id,
    instanceId: r.instance_id,
    decisionsCount: Number(r.decisions_count),
    delegationsCount: Number(r.delegations_count),
    tenantGroupType: {
      id: r.type_id,
      groupTypeName: r.group_type_name,
      shouldAllowEnableDisable: r.should_allow_enable_disable,
      isDefault: r.type_is_default,
      disableOption: r.type_disable_option,
    },
    address: r.address_id
      ? {
          id: r.address_id,
          groupId: r.id,
          street1: r.street1,
          street2: r.street2,
          city: r.city,
          state: r.state,
          stateCode: r.state_code,
          zipCode: r.zip_code,
          country: r.country,
          countryCode: r.country_code,
          createdOn: r.address_created_on!,
          updatedOn: r.address_updated_on!,
        }
      : null,
    parentGroups: r.parent_groups ?? [],
    childGroups: r.child_groups ?? [],
  };
}

/** Every field of the view: what `select` may name. */
export const GROUP_FIELDS = viewFields<GroupView>({ id: true, tenantId: true, groupId: true, groupName: true, displayName: true, legalName: true, status: true, createdOn: true, updatedOn: true, isSynced: true, isDeleted: true, disableOption: true, baseCurrency: true, externalId: true, instanceId: true, decisionsCount: true, delegationsCount: true, tenantGroupType: true, address: true, parentGroups: true, childGroups: true });
