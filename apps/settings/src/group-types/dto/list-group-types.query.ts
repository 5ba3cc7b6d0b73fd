import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { PageQuery, ToBoolean } from '@ddm/contracts';

/** Sorted by creation (then id); `sortOrder` turns it round. */
export class ListGroupTypesQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Tenant ID (default: the caller’s active tenant)' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'true: ACTIVE types only; false: INACTIVE types only', example: false })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  isActive?: boolean;
}
