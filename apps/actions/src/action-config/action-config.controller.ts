import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, ResponseMessage } from '@ddm/contracts';
import { ActionConfigService } from './action-config.service';
import { ActionPriorityView, ActionStatusView, ActionTypeView } from './dto/action-config.response';

@ApiTags('Action configuration')
@ApiAuth()
@Controller('v1')
export class ActionConfigController {
  constructor(private readonly config: ActionConfigService) {}

  @Get('action-statuses')
  @ApiOperation({ summary: "The tenant's action statuses", description: 'To Do, In Progress, Completed, Canceled, Overdue, in that order.' })
  @ApiOkResponse({ type: [ActionStatusView] })
  @ResponseMessage('Action statuses retrieved successfully')
  statuses(@CurrentCaller() caller: Caller): Promise<ActionStatusView[]> {
    return this.config.statuses(caller.tenantId);
  }

  @Get('action-priorities')
  @ApiOperation({ summary: "The tenant's action priorities", description: 'Low, Medium, High, Critical (lowest first), each with its colour.' })
  @ApiOkResponse({ type: [ActionPriorityView] })
  @ResponseMessage('Action priorities retrieved successfully')
  priorities(@CurrentCaller() caller: Caller): Promise<ActionPriorityView[]> {
    return this.config.priorities(caller.tenantId);
  }

  @Get('action-types')
  @ApiOperation({ summary: "The tenant's action types", description: 'Meeting, Email, Review, Approval, Task.' })
  @ApiOkResponse({ type: [ActionTypeView] })
  @ResponseMessage('Action types retrieved successfully')
  types(@CurrentCaller() caller: Caller): Promise<ActionTypeView[]> {
    return this.config.types(caller.tenantId);
  }
}
