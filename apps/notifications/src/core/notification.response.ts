import { ApiProperty } from '@nestjs/swagger';
import { NotificationPayload } from '@ddm/contracts';
import { STATUSES, relativeTime } from './notification.rules';
import { CATEGORIES, TEMPLATE_KEYS } from './template.rules';

/** Notification (spec §2.14). */
export class NotificationView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ enum: TEMPLATE_KEYS, example: 'DELEGATION_ISSUED' }) templateKey: string;
  @ApiProperty({ enum: CATEGORIES, example: 'DELEGATION' }) category: string;
  @ApiProperty({ description: 'Rendered from the template (plain text)' }) title: string;
  @ApiProperty({ description: 'Rendered from the template (HTML; placeholder values escaped)' }) message: string;
  @ApiProperty() isActionable: boolean;
  @ApiProperty({ enum: STATUSES }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ type: String, nullable: true, example: 'delegation' }) entityType: string | null;
  @ApiProperty({ type: String, nullable: true }) entityId: string | null;
  @ApiProperty({ example: '5 minutes ago', description: 'Computed when answered' }) relativeTime: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) readAt: string | null;
  @ApiProperty({ type: String, nullable: true }) actionUrl: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) payload: Record<string, unknown> | null;
}

/** The notification as answered, its relativeTime computed at `now`. */
export function toNotificationView(tenantId: string, p: NotificationPayload, now: Date = new Date()): NotificationView {
  return {
    id: p.id,
    tenantId,
    templateKey: p.templateKey,
    category: p.category,
    title: p.title,
    message: p.message,
    isActionable: p.isActionable,
    status: p.status,
    createdAt: p.createdAt,
    userId: p.userId,
    entityType: p.entityType,
    entityId: p.entityId,
    relativeTime: relativeTime(new Date(p.createdAt), now),
    readAt: p.readAt,
    actionUrl: p.actionUrl,
    payload: p.payload,
  };
}
