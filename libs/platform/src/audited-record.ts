import { Column } from 'typeorm';

/**
 * The columns every soft-deleted, audited table has (ARCHITECTURE §2): who created, changed and
 * deleted the row, and when. Entity classes extend it for those columns.
 */
export abstract class AuditedRecord {
  @Column({ name: 'is_deleted', type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ name: 'deleted_on', type: 'timestamptz', nullable: true }) deletedOn: Date | null;
  @Column({ name: 'deleted_by', type: 'uuid', nullable: true }) deletedBy: string | null;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'created_by', type: 'uuid', nullable: true }) createdBy: string | null;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
  @Column({ name: 'updated_by', type: 'uuid', nullable: true }) updatedBy: string | null;
}
