import { Module } from '@nestjs/common';
import { MAIL_OPTIONS, MailService, loadMailOptions, projectionConsumers } from '@ddm/platform';
import { EventNotificationsConsumer } from './consumers/event-notifications.consumer';
import { NotificationsController } from './notifications/notifications.controller';
import { NotificationsService } from './notifications/notifications.service';
import { NOTIFICATIONS_OPTIONS, loadNotificationsOptions } from './notifications.config';
import { PreferencesController } from './preferences/preferences.controller';
import { PreferencesService } from './preferences/preferences.service';
import { DELEGATIONS } from './consumers/delegation.projection';
import { USERS } from './consumers/user.projection';
import { LiveStreams } from './stream/live-streams';
import { SweepsService } from './sweeps/sweeps.service';
import { TemplatesController } from './templates/templates.controller';
import { TemplatesService } from './templates/templates.service';

/**
 * The notifications area: each person's notifications (made through the API or from the other
 * areas' events), their counts and read state, the tenant's templates, live delivery (SSE), the
 * retention sweep and email digest, and the projection of auth's users it needs.
 */
@Module({
  controllers: [TemplatesController, PreferencesController, NotificationsController],
  providers: [
    { provide: NOTIFICATIONS_OPTIONS, useFactory: () => loadNotificationsOptions(process.env) },
    // The same mail settings as auth's invitations (SMTP_URL, MAIL_FROM, MAIL_DIR, SMTP_TIMEOUT_MS).
    { provide: MAIL_OPTIONS, useFactory: () => loadMailOptions(process.env) },
    MailService,
    SweepsService,
    TemplatesService,
    NotificationsService,
    PreferencesService,
    LiveStreams,
    EventNotificationsConsumer,
    projectionConsumers(USERS, DELEGATIONS),
  ],
})
export class NotificationsModule {}
