import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';

/** `?tenantId=` of a read that acts in one tenant (default: the caller's active tenant). */
export class TenantQuery {
  @ApiPropertyOptional({ description: "Default: the caller's active tenant" })
  @IsOptional()
  @IsUUID()
  tenantId?: string;
}
