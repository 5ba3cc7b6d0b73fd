import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { ListPositionsQuery } from './dto/list-positions.query';
import { BulkStatusDto, CreatePositionDto, DeletePositionsDto, UpdatePositionDto } from './dto/position-change.dto';
import { BulkStatusResult, PositionView } from './dto/position.response';
import { PositionsService } from './positions.service';

@ApiTags('Positions')
@ApiAuth()
@Controller('v1/positions')
export class PositionsController {
  constructor(private readonly positions: PositionsService) {}

  @Get()
  @ApiOperation({
    summary: 'List positions',
    description:
      'Paged positions (spec §2.6) of the tenant, filtered and sorted. `select` (or the deprecated `fields`) keeps only the named keys of each item. ' +
      '`pinnedPositionIds` puts those positions (when they match the filters) before the others.',
  })
  @ApiPageResponse(PositionView, 'Paged positions (spec §2.6)')
  @ApiBadRequestResponse({ description: 'A bad parameter: limit outside 1..100, unknown enumerated value or field name, malformed UUID or date-time' })
  @ResponseMessage('Positions list retrieved successfully')
  list(@Query() query: ListPositionsQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<PositionView>>> {
    return this.positions.list(caller.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a position' })
  @ApiOkResponse({ type: PositionView })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's position" })
  @ResponseMessage('Position retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<PositionView> {
    return this.positions.get(caller.tenantId, id);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Create a position', description: 'Names are unique in the tenant among positions not deleted (case-insensitive).' })
  @ApiOkResponse({ type: PositionView })
  @ApiNotFoundResponse({ description: 'A group named in groupIds is unknown, deleted or of another tenant' })
  @ApiConflictResponse({ description: 'The tenant already has a position of that name' })
  @ResponseMessage('Position created successfully')
  create(@Body() body: CreatePositionDto, @CurrentCaller() caller: Caller): Promise<PositionView> {
    return this.positions.create(caller.tenantId, body, caller.userId);
  }

  // Static path before ':id'.
  @Patch('bulk-status-update')
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: 'Set the status of several positions',
    description: 'All or nothing: every id must name a live position of the tenant, else a 404 naming each other one (ids.N) and nothing changes. successful: the positions set (whether or not their status changed).',
  })
  @ApiOkResponse({ type: BulkStatusResult })
  @ApiNotFoundResponse({ description: "An id unknown, deleted or of another tenant (errors[] names ids.N); nothing was changed" })
  @ResponseMessage('Positions updated successfully')
  bulkStatus(@Body() body: BulkStatusDto, @CurrentCaller() caller: Caller): Promise<BulkStatusResult> {
    return this.positions.bulkStatus(caller.tenantId, body, caller.userId);
  }

  @Patch(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Update a position', description: 'The fields given change; groupIds replaces the set of groups.' })
  @ApiOkResponse({ type: PositionView })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's position; or a group named in groupIds" })
  @ApiConflictResponse({ description: 'The tenant already has a position of that name' })
  @ResponseMessage('Position updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdatePositionDto, @CurrentCaller() caller: Caller): Promise<PositionView> {
    return this.positions.update(caller.tenantId, id, body, caller.userId);
  }

  @Delete()
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: 'Delete positions in bulk',
    description: "All or nothing: if any id is unknown, already deleted or another tenant's, nothing is deleted and the answer is a 404 naming them.",
  })
  @ApiOkResponse({ type: [PositionView], description: 'The deleted positions, as they were, with isDeleted true' })
  @ApiNotFoundResponse({ description: 'Some ids are unknown (message and errors name them); nothing was deleted' })
  @ResponseMessage('Positions deleted successfully')
  remove(@Body() body: DeletePositionsDto, @CurrentCaller() caller: Caller): Promise<PositionView[]> {
    return this.positions.remove(caller.tenantId, body, caller.userId);
  }
}
