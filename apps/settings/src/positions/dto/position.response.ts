import { ApiProperty } from '@nestjs/swagger';
import { RECORD_STATUSES } from '@ddm/contracts';

/** A group of a position (spec §2.6 `groups`), as of the position-group link. */
export class PositionGroupView {
  @ApiProperty() groupName: string;
  @ApiProperty({ nullable: true }) displayName: string | null;
  @ApiProperty({ nullable: true, description: 'Name of the group type' }) groupTypeName: string | null;
  @ApiProperty({ description: "The group's record id (UUID)" }) groupId: string;
  @ApiProperty({ nullable: true, description: "The group type's record id" }) groupTypeId: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Record id (UUID) of the group's parent: its first parent that is not deleted, by link creation; null for a top-level group. " +
      'The spec types it as a number without saying what it counts; we answer the parent record id, which clients can resolve.',
  })
  parentId: string | null;
  @ApiProperty({ nullable: true, description: "Name of that parent group" }) parentName: string | null;
  @ApiProperty({ description: 'When the position was linked to the group' }) createdAt: string;
  @ApiProperty({ description: 'When the link last changed' }) updatedAt: string;
}

/** Position (spec §2.6). */
export class PositionView {
  @ApiProperty() id: string;
  @ApiProperty() tenantId: string;
  @ApiProperty({ description: 'Display id ("10000", ...)' }) positionId: string;
  @ApiProperty() positionName: string;
  @ApiProperty({ description: 'Provisioned by Directory Sync (SCIM)' }) isSCIMProvisioned: boolean;
  @ApiProperty({ enum: RECORD_STATUSES }) status: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty() createdOn: string;
  @ApiProperty() updatedOn: string;
  @ApiProperty({ description: 'Active delegations this position received (decision area projection)' }) delegationsReceived: number;
  @ApiProperty({ description: 'Active delegations this position issued (decision area projection)' }) delegationsIssued: number;
  @ApiProperty({ nullable: true }) externalId: string | null;
  @ApiProperty({ nullable: true }) instanceId: string | null;
  @ApiProperty({ type: [PositionGroupView], description: 'Groups the position belongs to (deleted groups left out)' }) groups: PositionGroupView[];
}

/** PATCH /settings/v1/positions/bulk-status-update */
export class BulkStatusResult {
  @ApiProperty({ description: 'Distinct ids asked' }) total: number;
  @ApiProperty({ description: 'Positions of the tenant found and set to the status' }) successful: number;
  @ApiProperty({ description: 'Ids unknown, deleted or of another tenant' }) failed: number;
}
