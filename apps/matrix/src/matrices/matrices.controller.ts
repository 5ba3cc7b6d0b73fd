import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { MatrixStatusView } from '../core/matrix-status.response';
import { BulkReassignOwnerDto, MatrixChangeDto, MatrixPatchDto, SaveViewDto } from './dto/matrix-change.dto';
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
  @ApiBadRequestResponse({ description: 'Invalid input (1..500 matrix ids)' })
  @ApiNotFoundResponse({ description: 'ownerId is not a member of the tenant' })
  @ResponseMessage('Matrix owners reassigned')
  bulkReassignOwner(@Body() body: BulkReassignOwnerDto, @CurrentCaller() caller: Caller): Promise<BulkReassignView> {
    return this.matrices.bulkReassignOwner(caller, body);
  }

  @Post('view')
  @HttpCode(201)
  @ApiOperation({ summary: 'Save matrix user view', description: 'One view per user and matrix: saving again replaces it.' })
  @ApiCreatedResponse({ type: MatrixUserViewView })
  @ApiBadRequestResponse({ description: 'Invalid input (viewData must be a JSON object of at most 64 KiB)' })
  @ApiNotFoundResponse({ description: 'matrixId names no matrix the caller sees' })
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
  @ApiOperation({
    summary: 'Create a matrix',
    description:
      'Owned by ownerId (a member of the tenant; default the caller). No decisions chosen: it covers every published decision of the tenant. Every id the body names must be a live record of the tenant.',
  })
  @ApiOkResponse({ type: MatrixView })
  @ApiBadRequestResponse({ description: 'Invalid input (each field named)' })
  @ApiNotFoundResponse({ description: 'An id of the body names no live record of the tenant (each field named, e.g. groupIds.0); nothing is created' })
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
  @ApiOperation({
    summary: 'Replace a matrix (full update)',
    description:
      'The body is the whole matrix: every field left out takes its default (no positions, groups, users or decisions chosen, PRIVATE sharing, no external link, Active), except the owner, kept when ownerId is left out. To change some fields only, use PATCH. The owner or a holder of edit:matrices; changing its sharing also needs share:matrices, changing its owner change_owner:matrices (or being the owner).',
  })
  @ApiOkResponse({ type: MatrixView })
  @ApiBadRequestResponse({ description: 'Invalid input (each field named)' })
  @ApiForbiddenResponse({ description: 'Missing permission "edit:matrices", "share:matrices" or "change_owner:matrices"' })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees, or an id of the body names no live record of the tenant (each field named); nothing is changed' })
  @ResponseMessage('Matrix updated successfully')
  update(@UuidParam('id') id: string, @Body() body: MatrixChangeDto, @CurrentCaller() caller: Caller): Promise<MatrixView> {
    return this.matrices.update(caller, id, body);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change some fields of a matrix',
    description:
      'Only the fields named change; an object field (matrixSharing, matrixExternalSharing, matrixDelegation, matrixAuthorityFormatting) and a list are replaced whole, null clears a nullable field. The same checks and permissions as PUT.',
  })
  @ApiOkResponse({ type: MatrixView })
  @ApiBadRequestResponse({ description: 'Invalid input (each field named), or no field to change' })
  @ApiForbiddenResponse({ description: 'Missing permission "edit:matrices", "share:matrices" or "change_owner:matrices"' })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees, or an id of the body names no live record of the tenant (each field named); nothing is changed' })
  @ResponseMessage('Matrix updated successfully')
  patch(@UuidParam('id') id: string, @Body() body: MatrixPatchDto, @CurrentCaller() caller: Caller): Promise<MatrixView> {
    return this.matrices.patch(caller, id, body);
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
