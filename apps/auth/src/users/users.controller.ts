import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, ResponseMessage, UuidParam } from '@ddm/contracts';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { UserView } from './dto/user.response';
import { UsersService } from './users.service';

@ApiTags('Users')
@ApiAuth()
@Controller('v1/user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('tenant/:tenantId/details')
  @ApiOperation({ summary: 'Get current user details for a tenant' })
  @ApiOkResponse({ description: 'The caller as a user of that tenant (spec §2.4)' })
  @ResponseMessage('User details fetched successfully')
  details(@UuidParam('tenantId') tenantId: string, @CurrentCaller() caller: Caller): Promise<UserView> {
    return this.users.getInTenant(tenantId, caller.userId);
  }

  @Patch('preferences')
  @ApiOperation({ summary: "Change the caller's own preferences" })
  @ApiOkResponse({ description: 'The caller (spec §2.4)' })
  @ResponseMessage('Preferences updated successfully')
  preferences(@Body() body: UpdatePreferencesDto, @CurrentCaller() caller: Caller): Promise<UserView> {
    return this.users.updatePreferences(caller.tenantId, caller.userId, body);
  }
}
