import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, RequirePermission, ResponseMessage } from '@ddm/contracts';
import { TenantQuery } from '../core/tenant.query';
import { TemplateView, UpdateTemplateDto } from './dto/template.dto';
import { TemplatesService } from './templates.service';

@ApiTags('Notifications')
@ApiAuth()
@Controller('v1/notifications/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @ApiOperation({ summary: 'List the notification templates', description: 'Every template of the tenant, with the placeholders each needs; texts the tenant changed are marked isCustom.' })
  @ApiOkResponse({ type: [TemplateView] })
  @ResponseMessage('Notification templates retrieved successfully')
  list(@Query() _query: TenantQuery, @CurrentCaller() caller: Caller): Promise<TemplateView[]> {
    return this.templates.list(caller.tenantId);
  }

  @Patch(':key')
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: "Change a template's texts for the tenant", description: 'Only the placeholders of the default texts may be used.' })
  @ApiOkResponse({ type: TemplateView })
  @ApiBadRequestResponse({ description: 'Unknown template key, unknown placeholder, or nothing to change' })
  @ResponseMessage('Notification template updated successfully')
  update(@Param('key') key: string, @Body() body: UpdateTemplateDto, @CurrentCaller() caller: Caller): Promise<TemplateView> {
    return this.templates.update(caller.tenantId, key, body, caller.userId);
  }
}
