import { ApiProperty } from '@nestjs/swagger';
import { NotificationPayload } from '@ddm/contracts';
import { NotificationView, toNotificationView } from '../../core/notification.response';
import { TIME_PERIODS } from '../notification.rules';

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

export const rowToView = (r: NotificationRow, now: Date = new Date()): NotificationView => toNotificationView(r.tenant_id, toNotificationPayload(r), now);
