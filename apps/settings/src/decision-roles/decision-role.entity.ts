import { AuditedRecord } from '@ddm/platform';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** settings.decision_roles: the roles a decision names (spec §2.7). Read and written with raw SQL; this class documents the table. */
@Entity({ schema: 'settings', name: 'decision_roles' })
export class DecisionRoleEntity extends AuditedRecord {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  /** Unique per tenant, case-insensitively, among the roles not deleted. */
  @Column({ name: 'role_name', type: 'varchar', length: 50 }) roleName: string;
  @Column({ type: 'varchar', length: 20, default: 'ACTIVE' }) status: string;
}
