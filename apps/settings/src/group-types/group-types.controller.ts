import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { CreateGroupTypeDto, UpdateGroupTypeDto } from './dto/group-type-change.dto';
import { GroupTypeView } from './dto/group-type.response';
import { ListGroupTypesQuery } from './dto/list-group-types.query';
import { GroupTypesService } from './group-types.service';

@ApiTags('Group types')
@ApiAuth()
@Controller('v1/group-types')
export class GroupTypesController {
  constructor(private readonly groupTypes: GroupTypesService) {}

  @Get()
  @ApiOperation({ summary: 'List group types', description: 'Paged, oldest first (sortOrder=desc: newest first). Every tenant has Organizations, Locations and Departments.' })
  @ApiPageResponse(GroupTypeView, 'Paged group types')
  @ResponseMessage('Tenant group types fetched successfully')
  list(@Query() query: ListGroupTypesQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<GroupTypeView>>> {
    return this.groupTypes.list(caller.tenantId, query);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Create a group type' })
  @ApiOkResponse({ type: GroupTypeView })
  @ApiConflictResponse({ description: 'The tenant already has a type of that name' })
  @ResponseMessage('Tenant group type created successfully')
  create(@Body() body: CreateGroupTypeDto, @CurrentCaller() caller: Caller): Promise<GroupTypeView> {
    return this.groupTypes.create(caller.tenantId, body, caller.userId);
  }

  @Patch(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Rename, (de)activate or change a group type' })
  @ApiOkResponse({ type: GroupTypeView })
  @ApiNotFoundResponse({ description: 'No such group type in the tenant' })
  @ApiConflictResponse({ description: 'Name taken, or disabling a type that cannot be disabled' })
  @ResponseMessage('Tenant group type updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateGroupTypeDto, @CurrentCaller() caller: Caller): Promise<GroupTypeView> {
    return this.groupTypes.update(caller.tenantId, id, body, caller.userId);
  }

  @Delete(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Delete a group type (soft)' })
  @ApiOkResponse({ type: GroupTypeView })
  @ApiNotFoundResponse({ description: 'No such group type in the tenant' })
  @ApiConflictResponse({ description: 'A default type, or groups still use it' })
  @ResponseMessage('Tenant group type deleted successfully')
  remove(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<GroupTypeView> {
    return this.groupTypes.remove(caller.tenantId, id, caller.userId);
  }
}
