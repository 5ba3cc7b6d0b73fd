import { ApiProperty } from '@nestjs/swagger';
import { PositionPayload, RECORD_STATUSES } from '@ddm/contracts';
import type { PositionField } from '../position.rules';

/** A group of a position (spec §2.6 `groups`), as of the position-group link. */
export class PositionGroupView {
  @ApiProperty() groupName: string;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Name of the group type' }) groupTypeName: string | null;
  @ApiProperty({ description: "The group's record id (UUID)" }) groupId: string;
  @ApiProperty({ type: String, nullable: true, description: "The group type's record id" }) groupTypeId: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Record id (UUID) of the group's parent: its first parent that is not deleted, by link creation; null for a top-level group. " +
      'The spec types it as a number without saying what it counts; we answer the parent record id, which clients can resolve.',
  })
  parentId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "Name of that parent group" }) parentName: string | null;
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
  @ApiProperty({ type: String, nullable: true }) externalId: string | null;
  @ApiProperty({ type: String, nullable: true }) instanceId: string | null;
  @ApiProperty({ type: [PositionGroupView], description: 'Groups the position belongs to (deleted groups left out)' }) groups: PositionGroupView[];
}

/** PATCH /settings/v1/positions/bulk-status-update */
export class BulkStatusResult {
  @ApiProperty({ description: 'Distinct ids asked' }) total: number;
  @ApiProperty({ description: 'Positions of the tenant found and set to the status' }) successful: number;
  @ApiProperty({ description: 'Always 0: an id unknown, deleted or of another tenant is a 404 and nothing changes (kept for the product\'s shape)' }) failed: number;
}

/** A row of the statements above. */
export interface PositionRow {
  id: string;
  tenant_id: string;
  position_display_id: string;
  position_name: string;
  is_scim_provisioned: boolean;
  status: string;
  is_deleted: boolean;
  created_on: string;
  updated_on: string;
  external_id: string | null;
  instance_id: string | null;
  delegations_received: number;
  delegations_issued: number;
  groups: PositionGroupView[] | null;
}

/** A list row: the position, its place on the page and the total of matching positions (an empty page: one row, ord null, only the total). */
export interface PositionListRow extends PositionRow {
  total: number;
  ord: number | null;
}

/** What evt.settings.position.* carry of a position. */
export function toPositionPayload(v: PositionView): PositionPayload {
  return {
    id: v.id,
    positionName: v.positionName,
    positionId: v.positionId,
    status: v.status,
    isDeleted: v.isDeleted,
    externalId: v.externalId,
    isSCIMProvisioned: v.isSCIMProvisioned,
    groupIds: v.groups.map((g) => g.groupId),
    updatedOn: v.updatedOn,
  };
}

export function toPositionView(r: PositionRow): PositionView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    positionId: r.position_display_id,
    positionName: r.position_name,
    isSCIMProvisioned: r.is_scim_provisioned,
    status: r.status,
    isDeleted: r.is_deleted,
    createdOn: r.created_on,
    updatedOn: r.updated_on,
    delegationsReceived: Number(r.delegations_received),
    delegationsIssued: Number(r.delegations_issued),
    externalId: r.external_id,
    instanceId: r.instance_id,
    groups: r.groups ?? [],
  };
}

/** Only the named fields of a view (`select` / `fields`); null or empty = the whole view. */
export function selectFields(view: PositionView, fields: readonly PositionField[] | null | undefined): Partial<PositionView> {
  if (!fields?.length) return view;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = view[f];
  return out as Partial<PositionView>;
}
