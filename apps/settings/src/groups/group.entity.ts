import { AuditedRecord } from '@ddm/platform';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A group of a tenant (an organization, location, department...): settings.groups. */
@Entity({ schema: 'settings', name: 'groups' })
export class GroupEntity extends AuditedRecord {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  /** groupId: the short random code (6 upper-case letters and digits), unique per tenant. */
  @Column({ name: 'group_code', type: 'varchar', length: 6 }) groupId: string;
  @Column({ name: 'tenant_group_type_id', type: 'uuid' }) tenantGroupTypeId: string;
  @Column({ name: 'group_name', type: 'varchar', length: 100 }) groupName: string;
  @Column({ name: 'display_name', type: 'varchar', length: 100, nullable: true }) displayName: string | null;
  @Column({ name: 'legal_name', type: 'varchar', length: 100, nullable: true }) legalName: string | null;
  @Column({ type: 'varchar', length: 20, default: 'ACTIVE' }) status: string;
  @Column({ name: 'base_currency', type: 'varchar', length: 3, nullable: true }) baseCurrency: string | null;
  @Column({ name: 'is_synced', type: 'boolean', default: false }) isSynced: boolean;
  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true }) externalId: string | null;
  @Column({ name: 'instance_id', type: 'varchar', length: 255, nullable: true }) instanceId: string | null;
  @Column({ name: 'disable_option', type: 'varchar', length: 20, default: 'NA' }) disableOption: string;
}

/** A group's address (at most one): settings.group_addresses. */
@Entity({ schema: 'settings', name: 'group_addresses' })
export class GroupAddressEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'group_id', type: 'uuid' }) groupId: string;
  @Column({ type: 'varchar', length: 200, nullable: true }) street1: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) street2: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) city: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) state: string | null;
  @Column({ name: 'state_code', type: 'varchar', length: 10, nullable: true }) stateCode: string | null;
  @Column({ name: 'zip_code', type: 'varchar', length: 20, nullable: true }) zipCode: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) country: string | null;
  @Column({ name: 'country_code', type: 'varchar', length: 3, nullable: true }) countryCode: string | null;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}

/** A link from a group to one of its parents (a group may have several): settings.group_parents. */
@Entity({ schema: 'settings', name: 'group_parents' })
export class GroupParentEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'group_id', type: 'uuid' }) groupId: string;
  @Column({ name: 'parent_id', type: 'uuid' }) parentId: string;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}
