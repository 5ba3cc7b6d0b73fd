import { Column, Entity, PrimaryColumn } from 'typeorm';

/** settings.decision_roles: the roles a decision names (spec §2.7). Read and written with raw SQL; this class documents the table. */
@Entity({ schema: 'settings', name: 'decision_roles' })
export class DecisionRoleEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  /** Unique per tenant, case-insensitively, among the roles not deleted. */
  @Column({ name: 'role_name', type: 'varchar', length: 50 }) roleName: string;
  @Column({ type: 'varchar', length: 20, default: 'ACTIVE' }) status: string;
  @Column({ name: 'is_deleted', type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ name: 'deleted_on', type: 'timestamptz', nullable: true }) deletedOn: Date | null;
  @Column({ name: 'deleted_by', type: 'uuid', nullable: true }) deletedBy: string | null;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'created_by', type: 'uuid', nullable: true }) createdBy: string | null;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
  @Column({ name: 'updated_by', type: 'uuid', nullable: true }) updatedBy: string | null;
}
