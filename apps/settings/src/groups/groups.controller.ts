import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { CreateGroupDto, UpdateGroupDto } from './dto/group-change.dto';
import { GroupView } from './dto/group.response';
import { ListGroupsQuery } from './dto/list-groups.query';
import { GroupsService } from './groups.service';

@ApiTags('Groups')
@ApiAuth()
@Controller('v1/groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @ApiOperation({ summary: 'List groups', description: 'Paged; each item also carries its direct children (childGroups).' })
  @ApiPageResponse(GroupView, 'Paged groups (spec §2.5), each with its childGroups')
  @ResponseMessage('Groups list retrieved successfully')
  list(@Query() query: ListGroupsQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<GroupView>>> {
    return this.groups.list(caller.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a group' })
  @ApiOkResponse({ type: GroupView })
  @ApiNotFoundResponse({ description: 'No such group in the tenant' })
  @ResponseMessage('Group details retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<GroupView> {
    return this.groups.get(caller.tenantId, id);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Create a group' })
  @ApiOkResponse({ type: GroupView })
  @ApiBadRequestResponse({ description: 'Invalid input, or an address for a type without addresses' })
  @ApiNotFoundResponse({ description: 'Unknown group type or parent group' })
  @ApiConflictResponse({ description: 'The group type is not active' })
  @ResponseMessage('Group created successfully')
  create(@Body() body: CreateGroupDto, @CurrentCaller() caller: Caller): Promise<GroupView> {
    return this.groups.create(caller.tenantId, body, caller.userId);
  }

  @Patch(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: 'Update a group, change its parents, or delete it (isDeleted: true)',
    description: 'A parent that is the group itself or one of its descendants is a 400 (the hierarchy stays acyclic).',
  })
  @ApiOkResponse({ type: GroupView })
  @ApiBadRequestResponse({ description: 'Invalid input, or a parent that would make a cycle' })
  @ApiNotFoundResponse({ description: 'No such group, type or parent in the tenant' })
  @ApiConflictResponse({ description: 'The new group type is not active' })
  @ResponseMessage('Group updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateGroupDto, @CurrentCaller() caller: Caller): Promise<GroupView> {
    return this.groups.update(caller.tenantId, id, body, caller.userId);
  }
}
