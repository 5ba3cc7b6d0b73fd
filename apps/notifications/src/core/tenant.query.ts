import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { OptionalNotNull } from '@ddm/contracts';

/** The OpenAPI of a request's `tenantId`. */
export const TENANT = { format: 'uuid', description: "The tenant; defaults to the caller's active tenant" } as const;

/** A request that names nothing but its tenant: mark-all-read, the stream, the templates and the preferences read. */
export class TenantQuery {
  @ApiPropertyOptional(TENANT)
  @OptionalNotNull()
  @IsUUID('all')
  tenantId?: string;
}
