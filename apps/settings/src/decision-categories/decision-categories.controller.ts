import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { DecisionCategoriesService } from './decision-categories.service';
import { CreateDecisionCategoryDto, UpdateDecisionCategoryDto } from './dto/decision-category-change.dto';
import { DecisionCategoryView } from './dto/decision-category.response';
import { ListDecisionCategoriesQuery } from './dto/list-decision-categories.query';

@ApiTags('Decision categories')
@ApiAuth()
@Controller('v1/decision-categories')
export class DecisionCategoriesController {
  constructor(private readonly categories: DecisionCategoriesService) {}

  @Get()
  @ApiOperation({ summary: 'List decision categories', description: 'Paged, with their sections; deleted categories are not listed. Sorted by category name unless sortBy says otherwise.' })
  @ApiPageResponse(DecisionCategoryView, 'Paged decision categories')
  @ResponseMessage('Decision categories list retrieved successfully')
  list(@Query() query: ListDecisionCategoriesQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<DecisionCategoryView>>> {
    return this.categories.list(caller.tenantId, query);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Create a decision category', description: 'Optionally in a section of the tenant. Refused (409) when a category of the tenant already has the name, in any case.' })
  @ApiOkResponse({ type: DecisionCategoryView })
  @ApiBadRequestResponse({ description: 'categoryName missing, blank or longer than 50; malformed sectionId; unknown field' })
  @ApiNotFoundResponse({ description: 'sectionId is not a section of the tenant (or it is deleted)' })
  @ApiConflictResponse({ description: 'The name is taken in the tenant' })
  @ResponseMessage('Decision category created successfully')
  create(@Body() body: CreateDecisionCategoryDto, @CurrentCaller() caller: Caller): Promise<DecisionCategoryView> {
    return this.categories.create(caller.tenantId, body, caller.userId);
  }

  @Patch(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: 'Update a decision category',
    description: 'Rename (409 onto a taken name), move to another section (sectionId: null takes it out of its section), or delete softly with isDeleted: true. A deleted category is a 404 afterwards.',
  })
  @ApiOkResponse({ type: DecisionCategoryView })
  @ApiBadRequestResponse({ description: 'Nothing to change, categoryName longer than 50, malformed id or sectionId, unknown field' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s decision category; or sectionId is not a live section of the tenant' })
  @ApiConflictResponse({ description: 'The new name is taken in the tenant' })
  @ResponseMessage('Decision category updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateDecisionCategoryDto, @CurrentCaller() caller: Caller): Promise<DecisionCategoryView> {
    return this.categories.update(caller.tenantId, id, body, caller.userId);
  }
}
