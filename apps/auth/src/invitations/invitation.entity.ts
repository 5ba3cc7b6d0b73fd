import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One invitation email: to whom, when, and whether the mail server took it. */
@Entity({ schema: 'auth', name: 'invitations' })
export class InvitationEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId: string;
  @Column({ type: 'varchar', length: 320 }) email: string;
  /** SENT or FAILED. */
  @Column({ type: 'varchar', length: 20 }) status: string;
  @Column({ type: 'varchar', length: 500, nullable: true }) error: string | null;
  @Column({ name: 'message_id', type: 'varchar', length: 255, nullable: true }) messageId: string | null;
  @Column({ name: 'sent_by', type: 'varchar', length: 200, nullable: true }) sentBy: string | null;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
}
