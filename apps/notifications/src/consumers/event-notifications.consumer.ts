import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Consumers, Tx } from '@ddm/platform';
import { EventNotification } from '../core/event-notification';
import { NotificationRefs } from '../notifications/notification-refs';
import {
  DELEGATION_NOTIFICATION_SUBJECTS,
  DOCUMENT_NOTIFICATION_SUBJECTS,
  actionAssignedNotification,
  actionOverdueNotification,
  delegationNotification,
  documentNotification,
  jobNotification,
} from './event-notifications.rules';

/**
 * Messages applied at once per consumer: each event makes notifications of its own (the natural
 * key keeps a twice-delivered one single), so their order does not matter and their commits overlap.
 * 4, not more: a burst on one source then takes 4 of the pool's 10 connections, the rest stay for
 * requests (measured, 4000 events: 1 at once 238 events/s, 4: 417-456, 8: 477, 16: 486).
 */
const CONCURRENCY = 4;

/**
 * A durable consumer per source area turning its events into notifications for the right people
 * (see event-notifications.rules): in the transaction that records the message, once per event
 * and person (the natural key), only to members of the event's tenant. No permission is needed.
 */
@Injectable()
export class EventNotificationsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    private readonly notifications: NotificationRefs,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'notifications-delegations',
      concurrency: CONCURRENCY,
      subjects: DELEGATION_NOTIFICATION_SUBJECTS,
      handle: (m, tx) => this.make(tx, m.payload.tenantId, delegationNotification(m.subject, m.payload)),
    });
    await this.consumers.start({
      name: 'notifications-actions',
      concurrency: CONCURRENCY,
      subjects: ['evt.actions.action.assigned', 'evt.actions.action.overdue'],
      handle: (m, tx) =>
        this.make(tx, m.payload.tenantId, m.subject === 'evt.actions.action.assigned' ? actionAssignedNotification(m.payload) : actionOverdueNotification(m.payload)),
    });
    await this.consumers.start({
      name: 'notifications-documents',
      concurrency: CONCURRENCY,
      subjects: DOCUMENT_NOTIFICATION_SUBJECTS,
      handle: (m, tx) => this.make(tx, m.payload.tenantId, documentNotification(m.subject, m.payload)),
    });
    await this.consumers.start({
      name: 'notifications-jobs',
      concurrency: CONCURRENCY,
      subjects: ['evt.decision.job.completed'],
      handle: (m, tx) => this.make(tx, m.payload.tenantId, jobNotification(m.payload)),
    });
  }

  private async make(tx: Tx, tenantId: string, n: EventNotification | null): Promise<void> {
    if (n) await this.notifications.notifyOf(tx, tenantId, n);
  }
}
