import { Body, Controller, Get, Headers, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AcceptsTicket, ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam, isUuid } from '@ddm/contracts';
import type { FastifyReply } from 'fastify';
import { NotificationView } from '../core/notification.response';
import { TenantQuery } from '../core/tenant.query';
import { StreamRefs } from '../stream/stream-refs';
import { StreamTicketRefs } from '../stream-tickets/stream-ticket-refs';
import { CountNotificationsQuery, CreateNotificationDto, ListNotificationsQuery, StreamQuery, ToggleStatusDto } from './dto/notification-request.dto';
import { MarkAllReadResult, NotificationCountsView } from './dto/notification.response';
import { NotificationsService } from './notifications.service';

@ApiTags('Notifications')
@ApiAuth()
@Controller('v1/notifications')
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly live: StreamRefs,
  ) {}

  @Post()
  @HttpCode(200)
  @RequirePermission('create:notifications')
  @ApiOperation({
    summary: 'Create notification',
    description:
      'Renders the template with the placeholders (a missing one is a 400 naming it) for a member of the tenant; status UNREAD. ' +
      'Notifications made from other areas’ events need no permission.',
  })
  @ApiOkResponse({ type: NotificationView, description: 'The notification (spec §2.14)' })
  @ApiBadRequestResponse({ description: 'Unknown templateKey, missing placeholder, userId not a member, actionUrl not a path or http/https URL, payload over 16 KiB, unknown field' })
  @ResponseMessage('Notification created successfully')
  create(@Body() body: CreateNotificationDto, @CurrentCaller() caller: Caller): Promise<NotificationView> {
    return this.notifications.create(caller.tenantId, body, caller.userId);
  }

  @Get()
  @ApiOperation({ summary: "List the caller's notifications", description: 'Paged, newest first; only the caller’s own in the tenant.' })
  @ApiPageResponse(NotificationView, 'Paged notifications (spec §2.14)')
  @ApiBadRequestResponse({ description: 'A bad parameter (limit outside 1..100, unknown status, templateKey, category or timePeriod)' })
  @ResponseMessage('Notifications retrieved successfully')
  list(@Query() query: ListNotificationsQuery, @CurrentCaller() caller: Caller): Promise<Page<NotificationView>> {
    return this.notifications.list(caller.tenantId, caller.userId, query);
  }

  @Get('count')
  @ApiOperation({ summary: 'Get notification status counts', description: "The caller's notifications created in the period (1m, 3m, 6m: calendar months back from now; all)." })
  @ApiOkResponse({ type: NotificationCountsView, description: 'Counts (spec §2.15)' })
  @ApiBadRequestResponse({ description: 'Unknown timePeriod or malformed tenantId' })
  @ResponseMessage('Notification counts retrieved successfully')
  count(@Query() query: CountNotificationsQuery, @CurrentCaller() caller: Caller): Promise<NotificationCountsView> {
    return this.notifications.count(caller.tenantId, caller.userId, query);
  }

  @Post('mark-all-read')
  @HttpCode(201)
  @ApiOperation({ summary: 'Mark all notifications read', description: "The caller's unread notifications in the tenant become read; count is how many changed (a second call answers 0)." })
  @ApiCreatedResponse({ type: MarkAllReadResult })
  @ResponseMessage('Notifications marked read successfully')
  markAllRead(@Query() _query: TenantQuery, @CurrentCaller() caller: Caller): Promise<MarkAllReadResult> {
    return this.notifications.markAllRead(caller.tenantId, caller.userId);
  }

  @Get('stream')
  @AcceptsTicket(StreamTicketRefs)
  @ApiOperation({
    summary: "Stream the caller's new notifications (Server-Sent Events)",
    description:
      'Each new notification of the caller in the tenant as an `event: notification` with its id; a reconnect sending Last-Event-ID (or `lastEventId`) first gets those created after it. ' +
      'A comment line every 25 s keeps the connection; at most 5 streams per person (the oldest is closed). ' +
      'Browsers, whose EventSource cannot send the bearer token, send a one-time `ticket` (POST /v1/notifications/stream-tickets) instead; with a bearer token as well, the ticket must be that caller’s.',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last notification received' })
  @ApiOkResponse({ description: 'An event stream (text/event-stream)' })
  @ApiUnauthorizedResponse({ description: 'No bearer token and no ticket; an invalid or expired token; a ticket unknown, used or expired' })
  async stream(@Query() query: StreamQuery, @CurrentCaller() caller: Caller, @Headers('last-event-id') lastEventId: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const given = query.lastEventId ?? lastEventId;
    const lastId = given && isUuid(given) ? given : null;
    await this.live.open(reply, caller.tenantId, caller.userId, lastId ? (max) => this.notifications.missed(caller.tenantId, caller.userId, lastId, max) : null);
  }

  @Patch(':id/toggle-status')
  @ApiOperation({ summary: 'Mark a notification read or unread', description: 'READ sets readAt (kept if already read); UNREAD clears it. Another person’s notification is a 404.' })
  @ApiOkResponse({ type: NotificationView })
  @ApiNotFoundResponse({ description: "Unknown id, or another person's or tenant's notification" })
  @ResponseMessage('Notification status updated successfully')
  toggleStatus(@UuidParam('id') id: string, @Body() body: ToggleStatusDto, @CurrentCaller() caller: Caller): Promise<NotificationView> {
    return this.notifications.toggleStatus(caller.tenantId, caller.userId, id, body);
  }
}
