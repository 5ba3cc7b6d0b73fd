import { ApiProperty } from '@nestjs/swagger';
import { NotificationPayload } from '@ddm/contracts';
import { CATEGORIES, TEMPLATE_KEYS } from '../../templates/template.rules';
import { STATUSES, TIME_PERIODS, relativeTime } from '../notification.rules';

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

/** Notification status counts (spec §2.15). */
export class NotificationCountsView {
  @ApiProperty() unread: number;
  @ApiProperty() read: number;
  @ApiProperty() total: number;
  @ApiProperty({ enum: TIME_PERIODS }) timePeriod: string;
}

export class MarkAllReadResult {
  @ApiProperty({ description: 'Notifications of the caller that were unread and now are read' }) count: number;
}

export class PreferencesView {
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ enum: ['off', 'daily', 'weekly'] }) emailDigest: string;
}

export interface NotificationRow {
  id: string;
  tenant_id: string;
  user_id: string;
  template_key: string;
  category: string;
  title: string;
  message: string;
  is_actionable: boolean;
  status: string;
  created_at: string;
  read_at: string | null;
  entity_type: string | null;
  entity_id: string | null;
  action_url: string | null;
  payload: Record<string, unknown> | null;
}

/** The notification as events carry it. */
export function toNotificationPayload(r: NotificationRow): NotificationPayload {
  return {
    id: r.id,
    templateKey: r.template_key,
    category: r.category,
    title: r.title,
    message: r.message,
    isActionable: r.is_actionable,
    status: r.status,
    createdAt: r.created_at,
    userId: r.user_id,
    entityType: r.entity_type,
    entityId: r.entity_id,
    readAt: r.read_at,
    actionUrl: r.action_url,
    payload: r.payload,
  };
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

export const rowToView = (r: NotificationRow, now: Date = new Date()): NotificationView => toNotificationView(r.tenant_id, toNotificationPayload(r), now);
