import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'auth', name: 'tenants' })
export class TenantEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'varchar', length: 20, default: 'ACTIVE' }) status: string;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}
