import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, ResponseMessage } from '@ddm/contracts';
import { ActionTemplatesService } from './action-templates.service';
import { ActionTemplateView } from './dto/action-template.response';
import { ListActionTemplatesQuery } from './dto/list-action-templates.query';

@ApiTags('Action templates')
@ApiAuth()
@Controller('v1/action-templates')
export class ActionTemplatesController {
  constructor(private readonly templates: ActionTemplatesService) {}

  @Get()
  @ApiOperation({ summary: 'List action templates', description: 'Paged; deleted templates are not listed. Every tenant has Send Email, Schedule Meeting, Review Document and Prepare Report.' })
  @ApiPageResponse(ActionTemplateView, 'Paged action templates')
  @ResponseMessage('Action templates list retrieved successfully')
  list(@Query() query: ListActionTemplatesQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<ActionTemplateView>>> {
    return this.templates.list(caller.tenantId, query);
  }
}
