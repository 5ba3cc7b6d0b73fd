import { AuditedRecord } from '@ddm/platform';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's group type (Organizations, Locations, Departments, or a custom one): settings.group_types. */
@Entity({ schema: 'settings', name: 'group_types' })
export class GroupTypeEntity extends AuditedRecord {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'group_type_name', type: 'varchar', length: 50 }) groupTypeName: string;
  /** ORGANIZATIONS, LOCATIONS, DEPARTMENTS for the three every tenant starts with; null for custom types. */
  @Column({ name: 'system_key', type: 'varchar', length: 20, nullable: true }) systemKey: string | null;
  @Column({ type: 'varchar', length: 20, default: 'ACTIVE' }) status: string;
  @Column({ name: 'is_default', type: 'boolean', default: false }) isDefault: boolean;
  @Column({ name: 'should_allow_enable_disable', type: 'boolean', default: true }) shouldAllowEnableDisable: boolean;
  @Column({ name: 'address_enabled', type: 'boolean', default: false }) addressEnabled: boolean;
  @Column({ name: 'disable_option', type: 'varchar', length: 20, default: 'NA' }) disableOption: string;
}
