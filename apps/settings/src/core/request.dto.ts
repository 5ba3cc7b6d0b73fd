import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { OptionalNotNull, PageQuery, ToBoolean, Trim } from '@ddm/contracts';

/** At most this many ids in a list's comma list of ids (`sectionIds`, `categoryIds`). */
export const MAX_LISTED_IDS = 100;

/** Longest `search` a list takes. */
export const SEARCH_MAX = 100;

/** A name (or other text) as a request sends it: a string, trimmed, not blank, at most `max` characters. */
export const NonBlankText = (max: number) => applyDecorators(Trim(), IsString(), IsNotEmpty(), MaxLength(max));

/** `isDeleted` of a PATCH: true deletes the record (softly); booleans or "true"/"false"; null is a 400. */
export const DeleteFlag = () =>
  applyDecorators(
    ApiPropertyOptional({ description: 'true deletes the record (softly); false changes nothing', example: false }),
    OptionalNotNull(),
    ToBoolean(),
    IsBoolean(),
  );

/** A body that may name the tenant (it must be the caller's; the guard checks membership). */
export class TenantScopedBody {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;
}

/** A page of a tenant's records (`tenantId` defaults to the caller's), optionally narrowed by name. */
export class TenantListQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'Name contains (case-insensitive; % and _ match themselves)', maxLength: SEARCH_MAX })
  @OptionalNotNull()
  @IsString()
  @MaxLength(SEARCH_MAX)
  search?: string;
}
