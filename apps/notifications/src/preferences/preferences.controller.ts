import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, ResponseMessage } from '@ddm/contracts';
import { TenantQuery } from '../core/tenant.query';
import { PreferencesView, UpdatePreferencesDto } from './dto/preference.dto';
import { PreferencesService } from './preferences.service';

@ApiTags('Notifications')
@ApiAuth()
@Controller('v1/notifications/preferences')
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @ApiOperation({ summary: "The caller's notification preferences" })
  @ApiOkResponse({ type: PreferencesView })
  @ResponseMessage('Notification preferences retrieved successfully')
  get(@Query() _query: TenantQuery, @CurrentCaller() caller: Caller): Promise<PreferencesView> {
    return this.preferences.get(caller.tenantId, caller.userId);
  }

  @Patch()
  @ApiOperation({ summary: "Change the caller's notification preferences", description: 'emailDigest: off, daily or weekly (a mail of the unread notifications).' })
  @ApiOkResponse({ type: PreferencesView })
  @ResponseMessage('Notification preferences updated successfully')
  update(@Body() body: UpdatePreferencesDto, @CurrentCaller() caller: Caller): Promise<PreferencesView> {
    return this.preferences.update(caller.tenantId, caller.userId, body);
  }
}
