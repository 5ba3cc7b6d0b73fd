import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * settings.delegation_projection: the decision area's delegations as evt.decision.delegation.*
 * tell them. Feeds positions' delegationsReceived/delegationsIssued, groups' counts and the
 * positions list's delegation filters. A revoked delegation stays revoked and stops counting.
 */
@Entity({ schema: 'settings', name: 'delegation_projection' })
export class DelegationProjectionEntity {
  @PrimaryColumn({ name: 'delegation_id', type: 'uuid' }) delegationId: string;
  /** Never changes: an event naming a known delegation under another tenant changes nothing. */
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'decision_id', type: 'uuid' }) decisionId: string;
  @Column({ name: 'issuer_type', type: 'varchar', length: 30 }) issuerType: string;
  @Column({ name: 'issuer_user_id', type: 'uuid', nullable: true }) issuerUserId: string | null;
  @Column({ name: 'issuer_position_id', type: 'uuid', nullable: true }) issuerPositionId: string | null;
  @Column({ name: 'recipient_type', type: 'varchar', length: 30 }) recipientType: string;
  @Column({ name: 'recipient_user_id', type: 'uuid', nullable: true }) recipientUserId: string | null;
  @Column({ name: 'recipient_position_id', type: 'uuid', nullable: true }) recipientPositionId: string | null;
  @Column({ type: 'text', array: true, default: () => `'{}'` }) pathways: string[];
  @Column({ name: 'group_ids', type: 'uuid', array: true, default: () => `'{}'` }) groupIds: string[];
  @Column({ name: 'revoked_on', type: 'timestamptz', nullable: true }) revokedOn: Date | null;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}
