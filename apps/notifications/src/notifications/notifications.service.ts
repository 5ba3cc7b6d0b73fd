import { Injectable } from '@nestjs/common';
import { MAX_READ_IDS, Page, badRequest, notFound } from '@ddm/contracts';
import { Db, listPage } from '@ddm/platform';
import { NotificationView } from '../core/notification.response';
import { TemplateKey } from '../core/template.rules';
import { CountNotificationsQuery, CreateNotificationDto, ListNotificationsQuery, ToggleStatusDto } from './dto/notification-request.dto';
import { NotificationCountsView, NotificationRow, rowToView } from './dto/notification.response';
import { NotificationRefs } from './notification-refs';
import { countSql, markAllReadSql, memberSql, missedSql, notificationList, toggleStatusSql } from './notification.sql';

/**
 * A person's notifications: made from a template (through the API or from another area's
 * event), listed, counted and marked read. Every new notification and every one marked read is
 * published (evt.notifications.notification.created | read) through the outbox.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly db: Db,
    private readonly refs: NotificationRefs,
  ) {}

  async create(tenantId: string, dto: CreateNotificationDto, by: string): Promise<NotificationView> {
    return this.db.transaction(async (tx) => {
      if (!(await tx.query(memberSql(tenantId, dto.userId))).length) {
        throw badRequest(`User ${dto.userId} is not a member of the tenant`, [{ field: 'userId', message: 'userId must be a member of the tenant' }]);
      }
      const rows = await this.refs.notify(
        tx,
        {
          tenantId,
          templateKey: dto.templateKey as TemplateKey,
          placeholders: dto.placeholders ?? {},
          entityType: dto.entityType ?? null,
          entityId: dto.entityId ?? null,
          actionUrl: dto.actionUrl ?? null,
          payload: dto.payload ?? null,
          sourceKey: null,
          createdBy: by,
        },
        [dto.userId],
        [],
      );
      return rowToView(rows[0]);
    });
  }

  list(tenantId: string, userId: string, q: ListNotificationsQuery): Promise<Page<NotificationView>> {
    const now = new Date();
    return listPage(this.db, notificationList(tenantId, userId, q, now), (r: NotificationRow) => rowToView(r, now));
  }

  /** The caller's notifications created after the one named (a stream reconnecting with Last-Event-ID), oldest first, at most `max`. */
  async missed(tenantId: string, userId: string, lastId: string, max: number): Promise<NotificationView[]> {
    const now = new Date();
    const rows = await this.db.query<NotificationRow>(missedSql(tenantId, userId, lastId, max));
    return rows.map((r) => rowToView(r, now));
  }

  async count(tenantId: string, userId: string, q: CountNotificationsQuery): Promise<NotificationCountsView> {
    const [c] = await this.db.query<{ unread: number; read: number; total: number }>(countSql(tenantId, userId, q.timePeriod, new Date()));
    return { unread: c.unread, read: c.read, total: c.total, timePeriod: q.timePeriod };
  }

  async markAllRead(tenantId: string, userId: string): Promise<{ count: number }> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string; read_at: string }>(markAllReadSql(tenantId, userId));
      const chunks: { tenantId: string; userId: string; notificationIds: string[]; readAt: string }[] = [];
      for (let i = 0; i < rows.length; i += MAX_READ_IDS) {
        const chunk = rows.slice(i, i + MAX_READ_IDS);
        chunks.push({ tenantId, userId, notificationIds: chunk.map((r) => r.id), readAt: chunk[0].read_at });
      }
      await tx.publishMany('evt.notifications.notification.read', chunks);
      return { count: rows.length };
    });
  }

  /** Another person's notification, or another tenant's, is a 404. */
  async toggleStatus(tenantId: string, userId: string, id: string, dto: ToggleStatusDto): Promise<NotificationView> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<NotificationRow & { previous_status: string }>(toggleStatusSql(tenantId, userId, id, dto.status));
      if (!row) throw notFound(`Notification ${id} not found`);
      if (row.previous_status !== 'READ' && row.status === 'READ') {
        await tx.publish('evt.notifications.notification.read', { tenantId, userId, notificationIds: [row.id], readAt: row.read_at! });
      }
      return rowToView(row);
    });
  }
}
