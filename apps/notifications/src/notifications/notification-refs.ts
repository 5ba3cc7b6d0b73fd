import { Inject, Injectable } from '@nestjs/common';
import { badRequest } from '@ddm/contracts';
import { SERVICE_CONFIG, ServiceConfig, Tx } from '@ddm/platform';
import { EventNotification } from '../core/event-notification';
import { TemplateKey, missingPlaceholders, render } from '../core/template.rules';
import { TemplateRefs } from '../templates/template-refs';
import { NotificationRow, toNotificationPayload } from './dto/notification.response';
import { NewNotifications, insertForRecipientsSql } from './notification.sql';

/** What a notification to make says and links to (the people it goes to are named apart). */
export interface NotificationSpec {
  tenantId: string;
  templateKey: TemplateKey;
  placeholders: Readonly<Record<string, string>>;
  entityType: string | null;
  entityId: string | null;
  actionUrl: string | null;
  payload: Record<string, unknown> | null;
  sourceKey: string | null;
  createdBy: string | null;
}

/**
 * What other resources (the consumers of the other areas' events, the sweeps, and the
 * notifications' own service) ask of notifications: to make one for some people, in their
 * transaction, published through the outbox (evt.notifications.notification.created).
 */
@Injectable()
export class NotificationRefs {
  constructor(
    private readonly templates: TemplateRefs,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  /**
   * Makes the notification for the people named and the holders of the positions named who are
   * members of the tenant, once per person and source key; publishes the new ones. A placeholder
   * the template needs and the values lack is a 400 naming it.
   */
  async notify(tx: Tx, spec: NotificationSpec, userIds: readonly string[], positionIds: readonly string[]): Promise<NotificationRow[]> {
    const template = await this.templates.get(tx, spec.tenantId, spec.templateKey);
    const missing = missingPlaceholders(template, spec.placeholders);
    if (missing.length) {
      throw badRequest(
        `The template ${spec.templateKey} needs the placeholder${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`,
        missing.map((m) => ({ field: `placeholders.${m}`, message: `placeholders.${m} is required by the template ${spec.templateKey}` })),
      );
    }
    const { title, message } = render(template, spec.placeholders);
    const n: NewNotifications = { ...spec, category: template.category, isActionable: template.isActionable, title, message };
    const rows = await tx.query<NotificationRow>(insertForRecipientsSql(n, userIds, positionIds));
    await tx.publishMany('evt.notifications.notification.created', rows.map((r) => ({ tenantId: r.tenant_id, notification: toNotificationPayload(r) })));
    return rows;
  }

  /**
   * The notification an event or a sweep asks for, in the tenant: linking to its path in the app,
   * with no payload and no author; none when it names nobody. Answers the rows made.
   */
  async notifyOf(tx: Tx, tenantId: string, n: EventNotification): Promise<NotificationRow[]> {
    if (!n.userIds.length && !n.positionIds.length) return [];
    const spec: NotificationSpec = {
      tenantId,
      templateKey: n.templateKey,
      placeholders: n.placeholders,
      entityType: n.entityType,
      entityId: n.entityId,
      actionUrl: `${this.config.appUrl}${n.path}`,
      payload: null,
      sourceKey: n.sourceKey,
      createdBy: null,
    };
    return this.notify(tx, spec, n.userIds, n.positionIds);
  }
}
