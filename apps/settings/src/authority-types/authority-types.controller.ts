import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { AuthorityTypesService } from './authority-types.service';
import { CreateAuthorityTypeDto, UpdateAuthorityTypeDto } from './dto/authority-type-change.dto';
import { AuthorityTypeView } from './dto/authority-type.response';
import { ListAuthorityTypesQuery } from './dto/list-authority-types.query';

@ApiTags('Authority types')
@ApiAuth()
@Controller('v1/authority-types')
export class AuthorityTypesController {
  constructor(private readonly authorityTypes: AuthorityTypesService) {}

  @Get()
  @ApiOperation({
    summary: 'List authority types',
    description: 'Paged; deleted types are not listed. Sorted by authorityTypeOrder unless sortBy says otherwise. Every tenant has Approval and Signatory.',
  })
  @ApiPageResponse(AuthorityTypeView, 'Paged authority types')
  @ResponseMessage('Authority types list retrieved successfully')
  list(@Query() query: ListAuthorityTypesQuery, @CurrentCaller() caller: Caller): Promise<Page<Partial<AuthorityTypeView>>> {
    return this.authorityTypes.list(caller.tenantId, query);
  }

  @Post()
  @HttpCode(200)
  @RequirePermission('manage:settings')
  @ApiOperation({ summary: 'Create an authority type', description: 'Placed after the last type unless authorityTypeOrder says otherwise. Refused (409) when a type of the tenant already has the name, in any case.' })
  @ApiOkResponse({ type: AuthorityTypeView })
  @ApiBadRequestResponse({ description: 'authorityType missing, blank or longer than 50; icon longer than 100; order not an integer >= 0; unknown status or field' })
  @ApiConflictResponse({ description: 'The name is taken in the tenant' })
  @ResponseMessage('Authority type created successfully')
  create(@Body() body: CreateAuthorityTypeDto, @CurrentCaller() caller: Caller): Promise<AuthorityTypeView> {
    return this.authorityTypes.create(caller.tenantId, body, caller.userId);
  }

  @Patch(':id')
  @RequirePermission('manage:settings')
  @ApiOperation({
    summary: 'Update an authority type',
    description: 'Rename (409 onto a taken name), set or clear the icon, reorder, (de)activate, or delete softly with isDeleted: true (409 for Approval and Signatory). A deleted type is a 404 afterwards.',
  })
  @ApiOkResponse({ type: AuthorityTypeView })
  @ApiBadRequestResponse({ description: 'Nothing to change, a field out of bounds, unknown status or field, malformed id' })
  @ApiNotFoundResponse({ description: 'Unknown, deleted or another tenant’s authority type' })
  @ApiConflictResponse({ description: 'The new name is taken in the tenant, or deleting a default type' })
  @ResponseMessage('Authority type updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateAuthorityTypeDto, @CurrentCaller() caller: Caller): Promise<AuthorityTypeView> {
    return this.authorityTypes.update(caller.tenantId, id, body, caller.userId);
  }
}
