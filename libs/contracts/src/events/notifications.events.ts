/** Events of the notifications area: a notification was created for a person, or read. */
import { BooleanField, NestedField, ObjectField, StringField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';

/** A notification as evt.notifications.notification.* carry it (spec §2.14 without relativeTime, which is computed when answered). */
export class NotificationPayload {
  @UuidField() id: string;
  @StringField({ max: 60 }) templateKey: string;
  @StringField({ max: 60 }) category: string;
  @StringField({ max: 20000 }) title: string;
  @StringField({ max: 200000 }) message: string;
  @BooleanField() isActionable: boolean;
  @StringField({ max: 10, description: 'UNREAD or READ' }) status: string;
  @StringField({ max: 40 }) createdAt: string;
  @UuidField() userId: string;
  @StringField({ nullable: true, max: 100 }) entityType: string | null;
  @StringField({ nullable: true, max: 100 }) entityId: string | null;
  @StringField({ nullable: true, max: 40 }) readAt: string | null;
  @StringField({ nullable: true, max: 2048 }) actionUrl: string | null;
  @ObjectField({ nullable: true }) payload: Record<string, unknown> | null;
}

/** evt.notifications.notification.created: the new notification, whole (live streams deliver it as is). */
export class NotificationEvent {
  @UuidField() tenantId: string;
  @NestedField(() => NotificationPayload) notification: NotificationPayload;
}

/** At most this many ids in one evt.notifications.notification.read (mark-all-read publishes one per chunk). */
export const MAX_READ_IDS = 1000;

/** evt.notifications.notification.read: a person's notifications that became read (ids only: a mark-all-read may cover thousands). */
export class NotificationsReadEvent {
  @UuidField() tenantId: string;
  @UuidField() userId: string;
  @UuidArrayField({ max: MAX_READ_IDS }) notificationIds: string[];
  @StringField({ max: 40 }) readAt: string;
}

export const NOTIFICATIONS_EVENTS = {
  'evt.notifications.notification.created': eventEntry(NotificationEvent, 'A notification was created for a person (from the API or from another area\'s event); live streams deliver it.'),
  'evt.notifications.notification.read': eventEntry(NotificationsReadEvent, 'Notifications of a person became read (toggle-status to READ: one id; mark-all-read: up to 1,000 ids per event).'),
} as const;

export const NOTIFICATION_SUBJECTS = {
  created: 'evt.notifications.notification.created',
  read: 'evt.notifications.notification.read',
} as const satisfies Record<string, keyof typeof NOTIFICATIONS_EVENTS>;
