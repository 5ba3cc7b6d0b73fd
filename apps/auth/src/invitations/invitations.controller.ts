import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, RequirePermission, ResponseMessage } from '@ddm/contracts';
import { UserView } from '../users/user-refs';
import { BulkResult } from './dto/invitation.response';
import { BulkResendInviteDto } from './dto/bulk-resend.dto';
import { BulkInviteDto, CreateUserDto } from './dto/invite-user.dto';
import { InvitationsService } from './invitations.service';

@ApiTags('Users')
@ApiAuth()
@Controller('v1/user')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post('create')
  @HttpCode(200)
  @RequirePermission('manage:users')
  @ApiOperation({ summary: 'Invite a user into a tenant', description: 'The user starts INVITED and, unless inviteViaEmail is false, gets an invitation email.' })
  @ApiOkResponse({ type: UserView, description: 'The invited user (spec §2.4)' })
  @ResponseMessage('User invited successfully')
  create(@Body() body: CreateUserDto, @CurrentCaller() caller: Caller): Promise<UserView> {
    return this.invitations.create(caller, body);
  }

  @Post('bulk-invite')
  @HttpCode(201)
  @RequirePermission('manage:users')
  @ApiOperation({ summary: 'Invite up to 500 users; each item succeeds or fails on its own' })
  @ApiCreatedResponse({ type: BulkResult })
  @ResponseMessage('Users invited')
  bulkInvite(@Body() body: BulkInviteDto, @CurrentCaller() caller: Caller): Promise<BulkResult> {
    return this.invitations.bulkInvite(caller, body.users);
  }

  @Post('bulk-resend-invite')
  @HttpCode(201)
  @RequirePermission('manage:users')
  @ApiOperation({ summary: 'Resend invitations in bulk' })
  @ApiCreatedResponse({ type: BulkResult })
  @ResponseMessage('Invitations resent')
  bulkResend(@Body() body: BulkResendInviteDto, @CurrentCaller() caller: Caller): Promise<BulkResult> {
    return this.invitations.resend(caller, body);
  }
}
