import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { MatrixStatusView } from '../core/matrix-status.response';
import { BulkReassignOwnerDto, MatrixChangeDto, SaveViewDto } from './dto/matrix-change.dto';
import { BulkReassignView, MatrixStatusCountsView, MatrixUserViewView, MatrixView } from './dto/matrix.response';
import { MatrixFiltersDto, MatrixSearchDto } from './dto/search.dto';
import { MatricesService } from './matrices.service';

@ApiTags('Matrices')
@ApiAuth()
@Controller('v1/matrix')
export class MatricesController {
  constructor(private readonly matrices: MatricesService) {}

  @Post('bulk-reassign-owner')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reassign matrix owner in bulk',
    description: 'Per item: "Matrix not found" (unknown, deleted, another tenant’s) or "Unauthorized operation" (neither the owner nor a holder of change_owner:matrices); the others change.',
  })
  @ApiOkResponse({ type: BulkReassignView })
  @ApiBadRequestResponse({ description: 'Invalid input (1..500 matrix ids), or an owner who is not a member of the tenant' })
  @ResponseMessage('Matrix owners reassigned')
  bulkReassignOwner(@Body() body: BulkReassignOwnerDto, @CurrentCaller() caller: Caller): Promise<BulkReassignView> {
    return this.matrices.bulkReassignOwner(caller, body);
  }

  @Post('view')
  @HttpCode(201)
  @ApiOperation({ summary: 'Save matrix user view', description: 'One view per user and matrix: saving again replaces it.' })
  @ApiCreatedResponse({ type: MatrixUserViewView })
  @ApiBadRequestResponse({ description: 'Invalid input (viewData must be a JSON object of at most 64 KiB)' })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees' })
  @ResponseMessage('Matrix view saved successfully')
  saveView(@Body() body: SaveViewDto, @CurrentCaller() caller: Caller): Promise<MatrixUserViewView> {
    return this.matrices.saveView(caller, body);
  }

  @Get('view/:matrixId')
  @ApiOperation({ summary: 'The caller’s saved view of a matrix' })
  @ApiOkResponse({ type: MatrixUserViewView })
  @ApiNotFoundResponse({ description: 'No such matrix, or no saved view' })
  @ResponseMessage('Matrix view retrieved successfully')
  getView(@UuidParam('matrixId') matrixId: string, @CurrentCaller() caller: Caller): Promise<MatrixUserViewView> {
    return this.matrices.getView(caller, matrixId);
  }

  @Post('global-search')
  @HttpCode(200)
  @ApiOperation({ summary: 'Matrix global search', description: 'Paged matrices (spec §2.12) the caller sees, restricted to the `select` fields when given.' })
  @ApiPageResponse(MatrixView, 'Paged matrices (spec §2.12)')
  @ResponseMessage('Matrices retrieved successfully')
  search(@Body() body: MatrixSearchDto, @CurrentCaller() caller: Caller): Promise<Page<Partial<MatrixView>>> {
    return this.matrices.search(caller, body);
  }

  @Post('status-counts')
  @HttpCode(200)
  @ApiOperation({ summary: 'Counts of the matrices the caller sees by status, with the search’s filters' })
  @ApiOkResponse({ type: MatrixStatusCountsView })
  @ResponseMessage('Matrix status counts retrieved successfully')
  statusCounts(@Body() body: MatrixFiltersDto, @CurrentCaller() caller: Caller): Promise<MatrixStatusCountsView> {
    return this.matrices.statusCounts(caller, body);
  }

  @Get('statuses')
  @ApiOperation({ summary: 'The statuses a matrix may have' })
  @ApiOkResponse({ type: [MatrixStatusView] })
  @ResponseMessage('Matrix statuses retrieved successfully')
  statuses(): MatrixStatusView[] {
    return this.matrices.statuses();
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('create:matrices')
  @ApiOperation({ summary: 'Create a matrix', description: 'The caller owns it. No decisions chosen: it covers every published decision of the tenant.' })
  @ApiOkResponse({ type: MatrixView })
  @ApiBadRequestResponse({ description: 'Invalid input' })
  @ApiNotFoundResponse({ description: 'A user or group to share with is not the tenant’s' })
  @ResponseMessage('Matrix created successfully')
  create(@Body() body: MatrixChangeDto, @CurrentCaller() caller: Caller): Promise<MatrixView> {
    return this.matrices.create(caller, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a matrix with every embedded list' })
  @ApiOkResponse({ type: MatrixView })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees' })
  @ResponseMessage('Matrix retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<MatrixView> {
    return this.matrices.get(caller, id);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a matrix (full update)', description: 'The owner or a holder of edit:matrices; changing its sharing also needs share:matrices (or being the owner).' })
  @ApiOkResponse({ type: MatrixView })
  @ApiBadRequestResponse({ description: 'Invalid input' })
  @ApiForbiddenResponse({ description: 'Missing permission "edit:matrices" or "share:matrices"' })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees' })
  @ResponseMessage('Matrix updated successfully')
  update(@UuidParam('id') id: string, @Body() body: MatrixChangeDto, @CurrentCaller() caller: Caller): Promise<MatrixView> {
    return this.matrices.update(caller, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a matrix (softly)' })
  @ApiOkResponse({ type: MatrixView })
  @ApiForbiddenResponse({ description: 'Missing permission "edit:matrices"' })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees' })
  @ResponseMessage('Matrix deleted successfully')
  remove(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<MatrixView> {
    return this.matrices.remove(caller, id);
  }

  @Put(':id/favorite')
  @ApiOperation({ summary: 'Mark a matrix as a favourite of the caller' })
  @ApiOkResponse({ type: MatrixView })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees' })
  @ResponseMessage('Matrix added to favorites')
  favorite(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<MatrixView> {
    return this.matrices.setFavorite(caller, id, true);
  }

  @Delete(':id/favorite')
  @ApiOperation({ summary: 'Remove a matrix from the caller’s favourites' })
  @ApiOkResponse({ type: MatrixView })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees' })
  @ResponseMessage('Matrix removed from favorites')
  unfavorite(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<MatrixView> {
    return this.matrices.setFavorite(caller, id, false);
  }
}
