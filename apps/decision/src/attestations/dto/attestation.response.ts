import { ApiProperty } from '@nestjs/swagger';
import { AttestationItemEvent, DELEGATION_RECIPIENT_TYPES } from '@ddm/contracts';
import { DELEGATION_STATUSES } from '../../core/delegation.types';
import { CAMPAIGN_STATUSES, ITEM_STATUSES } from '../attestation.rules';

export class AttestationScopeView {
  @ApiProperty({ type: [String], format: 'uuid' }) decisionIds: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) groupIds: string[];
  @ApiProperty() all: boolean;
}

/** An attestation campaign with its progress (counts of its items by status). */
export class AttestationCampaignView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '10000' }) campaignDisplayId: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ example: 'Q3 delegation review' }) name: string;
  @ApiProperty({ enum: CAMPAIGN_STATUSES, description: 'OPEN while an item is PENDING' }) status: string;
  @ApiProperty({ format: 'date-time' }) dueDate: string;
  @ApiProperty() suspendOverdue: boolean;
  @ApiProperty({ type: AttestationScopeView }) scope: AttestationScopeView;
  @ApiProperty({ description: 'Delegations covered (one item each)' }) total: number;
  @ApiProperty() confirmed: number;
  @ApiProperty() disputed: number;
  @ApiProperty() pending: number;
  @ApiProperty() overdue: number;
  @ApiProperty({ format: 'uuid' }) createdBy: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) closedAt: string | null;
}

export class AttestationPersonView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty() email: string;
}

/** One delegation of a campaign: who was asked, and the answer. */
export class AttestationItemView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ example: '10000' }) delegationDisplayId: string;
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({ example: '10000' }) decisionDisplayId: string;
  @ApiProperty() decisionName: string;
  @ApiProperty({ enum: DELEGATION_STATUSES, description: "The delegation's status now" }) delegationStatus: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) issuerUserId: string | null;
  @ApiProperty({ enum: DELEGATION_RECIPIENT_TYPES, description: 'The recipient when the campaign opened' }) recipientType: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) recipientUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) recipientPositionId: string | null;
  @ApiProperty({ type: AttestationPersonView, nullable: true }) recipientUser: AttestationPersonView | null;
  @ApiProperty({ type: String, nullable: true }) recipientPositionName: string | null;
  @ApiProperty({ enum: ITEM_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true }) comment: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) respondedBy: string | null;
  @ApiProperty({ type: AttestationPersonView, nullable: true }) respondedByUser: AttestationPersonView | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) respondedAt: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['API', 'ACTION', null], description: 'Answered through this endpoint (API) or the Attestation action (ACTION)' }) respondedVia: string | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** What every attestation event of a delegation in a campaign carries (evt.decision.attestation.*), from the campaign's row and the item's (its recipient at the opening). */
export function toItemEvent(
  tenantId: string,
  campaign: { id: string; name: string; due_date: Date | string; created_by: string },
  delegation: {
    delegation_id: string;
    delegation_display_id: string;
    decision_id: string;
    issuer_user_id: string | null;
    recipient_type: string;
    recipient_user_id: string | null;
    recipient_position_id: string | null;
  },
): AttestationItemEvent {
  return {
    tenantId,
    campaignId: campaign.id,
    campaignName: campaign.name,
    delegationId: delegation.delegation_id,
    delegationDisplayId: delegation.delegation_display_id,
    decisionId: delegation.decision_id,
    recipientType: delegation.recipient_type as AttestationItemEvent['recipientType'],
    recipientUserId: delegation.recipient_user_id,
    recipientPositionId: delegation.recipient_position_id,
    issuerUserId: delegation.issuer_user_id,
    requestedById: campaign.created_by,
    dueDate: new Date(campaign.due_date).toISOString(),
  };
}
