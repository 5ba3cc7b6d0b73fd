import { Module } from '@nestjs/common';
import { MAIL_OPTIONS, MailService, loadMailOptions, projectionConsumers } from '@ddm/platform';
import { EventNotificationsConsumer } from './consumers/event-notifications.consumer';
import { DELEGATIONS } from './consumers/delegation.projection';
import { USERS } from './consumers/user.projection';
import { NOTIFICATIONS_OPTIONS, loadNotificationsOptions } from './core/notifications.config';
import { NotificationRefs } from './notifications/notification-refs';
import { NotificationsController } from './notifications/notifications.controller';
import { NotificationsService } from './notifications/notifications.service';
import { PreferencesController } from './preferences/preferences.controller';
import { PreferencesService } from './preferences/preferences.service';
import { LiveStreams } from './stream/live-streams';
import { StreamRefs } from './stream/stream-refs';
import { StreamTicketRefs } from './stream-tickets/stream-ticket-refs';
import { StreamTicketsController } from './stream-tickets/stream-tickets.controller';
import { StreamTicketsService } from './stream-tickets/stream-tickets.service';
import { DigestSweep } from './sweeps/digest.sweep';
import { ExpiringSweep } from './sweeps/expiring.sweep';
import { RetentionSweep } from './sweeps/retention.sweep';
import { StreamTicketSweep } from './sweeps/stream-ticket.sweep';
import { TemplateRefs } from './templates/template-refs';
import { TemplatesController } from './templates/templates.controller';
import { TemplatesService } from './templates/templates.service';

/**
 * The notifications area: each person's notifications (made through the API or from the other
 * areas' events), their counts and read state, the tenant's templates, live delivery (SSE) and its one-time tickets, the
 * retention, expiring-delegation and email-digest sweeps, and the projections of auth's users and
 * the decision area's delegations it needs.
 */
@Module({
  controllers: [TemplatesController, PreferencesController, StreamTicketsController, NotificationsController],
  providers: [
    { provide: NOTIFICATIONS_OPTIONS, useFactory: () => loadNotificationsOptions(process.env) },
    // The same mail settings as auth's invitations (SMTP_URL, MAIL_FROM, MAIL_DIR, SMTP_TIMEOUT_MS).
    { provide: MAIL_OPTIONS, useFactory: () => loadMailOptions(process.env) },
    MailService,
    RetentionSweep,
    ExpiringSweep,
    DigestSweep,
    TemplateRefs,
    TemplatesService,
    NotificationRefs,
    NotificationsService,
    PreferencesService,
    LiveStreams,
    StreamRefs,
    StreamTicketsService,
    StreamTicketRefs,
    StreamTicketSweep,
    EventNotificationsConsumer,
    projectionConsumers(USERS, DELEGATIONS),
  ],
})
export class NotificationsModule {}
