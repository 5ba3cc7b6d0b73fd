import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsString, IsUUID, MaxLength, ValidateBy } from 'class-validator';
import { OptionalNotNull, PageQuery } from '@ddm/contracts';
import { STATUSES } from '../../core/notification.rules';
import { CATEGORIES, TEMPLATE_KEYS } from '../../core/template.rules';
import { TENANT, TenantQuery } from '../../core/tenant.query';
import { MAX_PAYLOAD_BYTES, MAX_PLACEHOLDERS, MAX_PLACEHOLDER_LENGTH, TIME_PERIODS, isAllowedActionUrl, payloadBytes, placeholderProblems } from '../notification.rules';

/** POST /v1/notifications */
export class CreateNotificationDto {
  @ApiProperty({ enum: TEMPLATE_KEYS, example: 'DELEGATION_ISSUED' })
  @IsIn(TEMPLATE_KEYS, { message: 'templateKey must be one of the notification templates (GET /v1/notifications/templates)' })
  templateKey: string;

  @ApiProperty({ format: 'uuid', description: 'The person told: a member of the tenant' })
  @IsUUID('all')
  userId: string;

  @ApiPropertyOptional(TENANT)
  @OptionalNotNull()
  @IsUUID('all')
  tenantId?: string;

  @ApiPropertyOptional({ example: 'delegation', maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  entityType?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  entityId?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: MAX_PLACEHOLDER_LENGTH },
    maxProperties: MAX_PLACEHOLDERS,
    description: 'Values of the template placeholders (every placeholder the template uses is required)',
    example: { delegationDisplayId: '10000' },
  })
  @OptionalNotNull()
  @ValidateBy({
    name: 'isPlaceholderMap',
    validator: {
      validate: (v: unknown) => placeholderProblems(v).length === 0,
      defaultMessage: () => `placeholders must be an object of at most ${MAX_PLACEHOLDERS} string values of at most ${MAX_PLACEHOLDER_LENGTH} characters`,
    },
  })
  placeholders?: Record<string, string>;

  @ApiPropertyOptional({ maxLength: 2048, description: 'A path of the app (/delegations/...) or an http/https URL', example: '/delegations/0190c0de-0000-7000-8000-000000000000' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2048)
  @ValidateBy({ name: 'isActionUrl', validator: { validate: (v: unknown) => typeof v === 'string' && isAllowedActionUrl(v), defaultMessage: () => 'actionUrl must be a relative path or an http/https URL' } })
  actionUrl?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: `Free data for the app (at most ${MAX_PAYLOAD_BYTES / 1024} KiB as JSON)` })
  @OptionalNotNull()
  @IsObject()
  @ValidateBy({ name: 'maxPayloadSize', validator: { validate: (v: unknown) => payloadBytes(v) <= MAX_PAYLOAD_BYTES, defaultMessage: () => `payload must be at most ${MAX_PAYLOAD_BYTES} bytes as JSON` } })
  payload?: Record<string, unknown>;
}

/** GET /v1/notifications/count */
export class CountNotificationsQuery {
  @ApiPropertyOptional(TENANT)
  @OptionalNotNull()
  @IsUUID('all')
  tenantId?: string;

  @ApiPropertyOptional({ enum: TIME_PERIODS, default: 'all', description: 'Created within the last month, 3 months, 6 months, or ever' })
  @OptionalNotNull()
  @IsIn(TIME_PERIODS)
  timePeriod: (typeof TIME_PERIODS)[number] = 'all';
}

/** GET /v1/notifications: the caller's own, newest first unless sortOrder=asc. */
export class ListNotificationsQuery extends PageQuery {
  @ApiPropertyOptional(TENANT)
  @OptionalNotNull()
  @IsUUID('all')
  tenantId?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'By creation time' })
  @OptionalNotNull()
  @IsIn(['asc', 'desc'])
  override sortOrder: 'asc' | 'desc' = 'desc';

  @ApiPropertyOptional({ enum: STATUSES })
  @OptionalNotNull()
  @IsIn(STATUSES)
  status?: (typeof STATUSES)[number];

  @ApiPropertyOptional({ enum: TEMPLATE_KEYS })
  @OptionalNotNull()
  @IsIn(TEMPLATE_KEYS)
  templateKey?: string;

  @ApiPropertyOptional({ enum: CATEGORIES })
  @OptionalNotNull()
  @IsIn(CATEGORIES)
  category?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  entityType?: string;

  @ApiPropertyOptional({ enum: TIME_PERIODS, default: 'all' })
  @OptionalNotNull()
  @IsIn(TIME_PERIODS)
  timePeriod: (typeof TIME_PERIODS)[number] = 'all';
}

/** PATCH /v1/notifications/{id}/toggle-status */
export class ToggleStatusDto {
  @ApiProperty({ enum: STATUSES, description: 'READ sets readAt; UNREAD clears it' })
  @IsIn(STATUSES)
  status: (typeof STATUSES)[number];
}

/** GET /v1/notifications/stream */
export class StreamQuery extends TenantQuery {
  @ApiPropertyOptional({
    maxLength: 100,
    description:
      'A one-time ticket (POST /v1/notifications/stream-tickets) in place of the bearer token, for browsers (EventSource sends no Authorization header). ' +
      'Used up by this request; unknown, used or expired: 401. Never logged.',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  ticket?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Like the Last-Event-ID header (which a new EventSource cannot send): first the notifications created after this one' })
  @OptionalNotNull()
  @IsUUID('all')
  lastEventId?: string;
}
