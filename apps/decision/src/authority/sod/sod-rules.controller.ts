import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import { SodRulesService } from './sod-rules.service';
import { SodConflictView, SodConflictsQuery } from './dto/sod-conflict.dto';
import { CreateSodRuleDto, SodRulesQuery, UpdateSodRuleDto } from './dto/sod-rule.dto';
import { SodRuleView } from './dto/sod-rule.response';

/**
 * Segregation of duties. Reading rules and conflicts needs view:decisions (as the authority check
 * does); changing rules needs edit:decisions: a rule constrains who may hold decisions' authority,
 * and those who shape decisions (System Admin, Global Authority Manager) set it.
 */
@ApiTags('Authority')
@ApiAuth()
@Controller('v1/authority')
export class SodRulesController {
  constructor(private readonly sod: SodRulesService) {}

  @Get('sod-rules')
  @RequirePermission('view:decisions')
  @ApiOperation({ summary: 'List segregation-of-duties rules', description: "The tenant's rules (deleted ones are not listed), by name unless sortBy says otherwise." })
  @ApiPageResponse(SodRuleView, 'Paged segregation-of-duties rules')
  @ApiBadRequestResponse({ description: 'A bad parameter: limit outside 1..100, unknown sortBy, malformed decisionId' })
  @ResponseMessage('Segregation-of-duties rules retrieved successfully')
  list(@Query() query: SodRulesQuery, @CurrentCaller() caller: Caller): Promise<Page<SodRuleView>> {
    return this.sod.list(caller, query);
  }

  @Post('sod-rules')
  @HttpCode(200)
  @RequirePermission('edit:decisions')
  @ApiOperation({
    summary: 'Create a segregation-of-duties rule',
    description:
      'Whoever holds `left` (an authority type of a decision) must not also hold `right`. Issuing a delegation that would make someone hold both is then a 409 naming the rule, ' +
      'unless the issuer holds approve:delegations and sends acknowledgeSodConflict: true. With sameGroupOnly, only when the two delegations\' groups overlap.',
  })
  @ApiOkResponse({ type: SodRuleView })
  @ApiBadRequestResponse({ description: 'A bad field (name blank or over 200, a side missing), an authority type the decision does not have, or the same authority on both sides' })
  @ApiNotFoundResponse({ description: "A decision the tenant does not have (or deleted), named by its field" })
  @ApiConflictResponse({ description: 'The tenant already has a rule of that name, or the most rules it may have' })
  @ResponseMessage('Segregation-of-duties rule created successfully')
  create(@Body() body: CreateSodRuleDto, @CurrentCaller() caller: Caller): Promise<SodRuleView> {
    return this.sod.create(caller, body);
  }

  @Get('sod-rules/:id')
  @RequirePermission('view:decisions')
  @ApiOperation({ summary: 'Get a segregation-of-duties rule' })
  @ApiOkResponse({ type: SodRuleView })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's rule" })
  @ResponseMessage('Segregation-of-duties rule retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<SodRuleView> {
    return this.sod.get(caller, id);
  }

  @Patch('sod-rules/:id')
  @RequirePermission('edit:decisions')
  @ApiOperation({ summary: 'Change a segregation-of-duties rule', description: 'The fields given change; a side sent replaces that side. Delegations already issued are not checked again.' })
  @ApiOkResponse({ type: SodRuleView })
  @ApiBadRequestResponse({ description: 'Nothing to change, a bad field, an authority type the decision does not have, or the same authority on both sides' })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's rule; or a decision the tenant does not have" })
  @ApiConflictResponse({ description: 'Another rule of the tenant has the name' })
  @ResponseMessage('Segregation-of-duties rule updated successfully')
  update(@UuidParam('id') id: string, @Body() body: UpdateSodRuleDto, @CurrentCaller() caller: Caller): Promise<SodRuleView> {
    return this.sod.update(caller, id, body);
  }

  @Delete('sod-rules/:id')
  @RequirePermission('edit:decisions')
  @ApiOperation({ summary: 'Delete a segregation-of-duties rule', description: 'Soft: the rule leaves lists, checks and conflicts; delegations that acknowledged it keep its id. Answers it as it was, now deleted.' })
  @ApiOkResponse({ type: SodRuleView })
  @ApiNotFoundResponse({ description: "Unknown, deleted, or another tenant's rule" })
  @ResponseMessage('Segregation-of-duties rule deleted successfully')
  remove(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<SodRuleView> {
    return this.sod.remove(caller, id);
  }

  @Get('sod-conflicts')
  @RequirePermission('view:decisions')
  @ApiOperation({
    summary: 'Who holds both sides of a segregation-of-duties rule now',
    description:
      "Each person or position holding both sides of a live rule now, as the authority engine's holders say (a delegation in force whose whole chain is in force; " +
      "a person also while holding the position a delegation was given to), one item per pair of delegations held, with each side's chain root first; " +
      'acknowledged when a delegation of either chain was issued with the rule acknowledged. By rule name, then holder.',
  })
  @ApiPageResponse(SodConflictView, 'Paged conflicts')
  @ApiBadRequestResponse({ description: 'A bad parameter: limit outside 1..100, malformed ruleId or userId' })
  @ApiNotFoundResponse({ description: "ruleId names an unknown, deleted, or another tenant's rule" })
  @ResponseMessage('Segregation-of-duties conflicts retrieved successfully')
  conflicts(@Query() query: SodConflictsQuery, @CurrentCaller() caller: Caller): Promise<Page<SodConflictView>> {
    return this.sod.conflicts(caller, query);
  }
}
