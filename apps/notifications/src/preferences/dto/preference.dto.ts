import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { OptionalNotNull } from '@ddm/contracts';
import { TENANT } from '../../core/tenant.query';

export const EMAIL_DIGESTS = ['off', 'daily', 'weekly'] as const;

/** PATCH /v1/notifications/preferences */
export class UpdatePreferencesDto {
  @ApiPropertyOptional(TENANT)
  @OptionalNotNull()
  @IsUUID('all')
  tenantId?: string;

  @ApiProperty({ enum: EMAIL_DIGESTS, description: 'A mail of the unread notifications: never, every day, or every week' })
  @IsIn(EMAIL_DIGESTS)
  emailDigest: (typeof EMAIL_DIGESTS)[number];
}

/** A person's notification preferences in a tenant. */
export class PreferencesView {
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ enum: ['off', 'daily', 'weekly'] }) emailDigest: string;
}
