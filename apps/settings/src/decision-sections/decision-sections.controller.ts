import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DecisionSectionsService } from './decision-sections.service';
import { CreateDecisionSectionDto } from './dto/decision-section-change.dto';
import { DecisionSectionView } from './dto/decision-section.response';
import { ListDecisionSectionsQuery } from './dto/list-decision-sections.query';

@ApiTags('Decision sections')
@ApiAuth()
@Controller('v1/decision-sections')
export class DecisionSectionsController {
  constructor(private readonly sections: DecisionSectionsService) {}

  @Get()
  @ApiOperation({ summary: 'List decision sections', description: 'Paged, with their categories; deleted sections are not listed. Sorted by section name unless sortBy says otherwise.' })
  @ApiPageResponse(DecisionSectionView, 'Paged decision sections')
  @ResponseMessage('Decision sections list retrieved successfully')
  list(@Query() query: ListDecisionSectionsQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<DecisionSectionView>>> {
    return this.sections.list(caller.tenantId, query);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Create a decision section', description: 'Refused (409) when a section of the tenant already has the name, in any case.' })
  @ApiOkResponse({ type: DecisionSectionView })
  @ApiBadRequestResponse({ description: 'sectionName missing, blank or longer than 50; unknown field' })
  @ApiConflictResponse({ description: 'The name is taken in the tenant' })
  @ResponseMessage('Decision section created successfully')
  create(@Body() body: CreateDecisionSectionDto, @CurrentCaller() caller: Caller): Promise<DecisionSectionView> {
    return this.sections.create(caller.tenantId, body, caller.userId);
  }

  @Delete(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: 'Delete a decision section (soft)',
    description: 'Its categories stay, in no section. Answers the deleted section; it is a 404 afterwards and its name is free again.',
  })
  @ApiOkResponse({ type: DecisionSectionView })
  @ApiBadRequestResponse({ description: 'Malformed id' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s decision section' })
  @ResponseMessage('Decision section deleted successfully')
  remove(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<DecisionSectionView> {
    return this.sections.remove(caller.tenantId, id, caller.userId);
  }
}
