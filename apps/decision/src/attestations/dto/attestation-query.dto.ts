import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { FilterEnumList, OptionalNotNull, PageQuery } from '@ddm/contracts';
import { CAMPAIGN_STATUSES, ITEM_STATUSES } from '../attestation.rules';
import { CAMPAIGN_SORTS, CampaignSort } from '../attestation.sql';

/** GET /decision/v1/attestations */
export class ListAttestationCampaignsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: `Comma-separated: ${CAMPAIGN_STATUSES.join(', ')}`, example: 'OPEN' })
  @FilterEnumList(CAMPAIGN_STATUSES)
  status?: string[];

  @ApiPropertyOptional({ maxLength: 200, description: "Contained in the campaign's name (case-insensitive), or its display id" })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: CAMPAIGN_SORTS, default: 'createdAt' })
  @OptionalNotNull()
  @IsIn(CAMPAIGN_SORTS)
  sortBy?: CampaignSort;
}

/** GET /decision/v1/attestations/{id}/items */
export class ListAttestationItemsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: `Comma-separated: ${ITEM_STATUSES.join(', ')}`, example: 'PENDING,OVERDUE' })
  @FilterEnumList(ITEM_STATUSES)
  status?: string[];
}

export const REPORT_FORMATS = ['csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** GET /decision/v1/attestations/{id}/report: the whole report, streamed (for the items as JSON, page through GET .../items). */
export class AttestationReportQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ enum: REPORT_FORMATS, default: 'csv' })
  @OptionalNotNull()
  @IsIn(REPORT_FORMATS)
  format: ReportFormat = 'csv';
}
