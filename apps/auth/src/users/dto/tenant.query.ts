import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { OptionalNotNull } from '@ddm/contracts';

/** `?tenantId=` of a read that acts in one tenant (default: the caller's active tenant). */
export class TenantQuery {
  @ApiPropertyOptional({ description: "Default: the caller's active tenant" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;
}
