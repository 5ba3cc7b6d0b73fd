import { Readable } from 'node:stream';
import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiPageResponse, Caller, CurrentCaller, Page, RequirePermission, ResponseMessage, UuidParam } from '@ddm/contracts';
import type { FastifyReply } from 'fastify';
import { MAX_CAMPAIGN_ITEMS, MAX_SCOPE_IDS } from './attestation.rules';
import { AttestationsService } from './attestations.service';
import { CreateAttestationCampaignDto, RespondAttestationDto } from './dto/attestation-change.dto';
import { AttestationReportQuery, ListAttestationCampaignsQuery, ListAttestationItemsQuery } from './dto/attestation-query.dto';
import { AttestationCampaignView, AttestationItemView } from './dto/attestation.response';

@ApiTags('Attestation campaigns')
@ApiAuth()
@Controller('v1/attestations')
export class AttestationsController {
  constructor(private readonly attestations: AttestationsService) {}

  @Post()
  @HttpCode(200)
  @RequirePermission('approve:delegations')
  @ApiOperation({
    summary: 'Open an attestation campaign',
    description:
      'Asks the holder of every delegation the scope covers and that is held now (ISSUED or ACCEPTED, in force, valid) to confirm or dispute it by dueDate: ' +
      'one item per delegation, and one evt.decision.attestation.requested each (the actions area opens an Attestation action for its holders). ' +
      'scope: the delegations of decisionIds; those covering groupIds or a group below them, or of a decision in them or below; or all (criteria add up). ' +
      `A scope covering nothing held today, or more than ${MAX_CAMPAIGN_ITEMS} delegations, is a 400.`,
  })
  @ApiOkResponse({ type: AttestationCampaignView })
  @ApiBadRequestResponse({ description: `A bad field: name missing or over 200, a scope naming nothing (or all with ids), over ${MAX_SCOPE_IDS} ids, dueDate not in the future; or nothing (too much) in scope` })
  @ApiForbiddenResponse({ description: 'Missing permission "approve:delegations"' })
  @ApiNotFoundResponse({ description: 'A decision or group the tenant does not have (named)' })
  @ResponseMessage('Attestation campaign opened successfully')
  open(@Body() body: CreateAttestationCampaignDto, @CurrentCaller() caller: Caller): Promise<AttestationCampaignView> {
    return this.attestations.open(caller, body);
  }

  @Get()
  @RequirePermission('view:decisions')
  @ApiOperation({ summary: 'List attestation campaigns', description: "Paged campaigns of the tenant with their progress, newest first unless sorted otherwise." })
  @ApiPageResponse(AttestationCampaignView, 'Paged attestation campaigns')
  @ApiBadRequestResponse({ description: 'A bad parameter' })
  @ResponseMessage('Attestation campaigns retrieved successfully')
  list(@Query() query: ListAttestationCampaignsQuery, @CurrentCaller() caller: Caller): Promise<Page<AttestationCampaignView>> {
    return this.attestations.list(caller, query);
  }

  @Get(':id')
  @RequirePermission('view:decisions')
  @ApiOperation({ summary: 'An attestation campaign and its progress', description: 'Counts of its items: total, confirmed, disputed, pending, overdue.' })
  @ApiOkResponse({ type: AttestationCampaignView })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's" })
  @ResponseMessage('Attestation campaign retrieved successfully')
  get(@UuidParam('id') id: string, @CurrentCaller() caller: Caller): Promise<AttestationCampaignView> {
    return this.attestations.get(caller, id);
  }

  @Get(':id/items')
  @RequirePermission('view:decisions')
  @ApiOperation({ summary: "A campaign's delegations", description: 'Paged, in delegation display id order; `status` filters (PENDING, CONFIRMED, DISPUTED, OVERDUE).' })
  @ApiPageResponse(AttestationItemView, 'Paged items of the campaign')
  @ApiBadRequestResponse({ description: 'A bad parameter' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's campaign" })
  @ResponseMessage('Attestation items retrieved successfully')
  items(@UuidParam('id') id: string, @Query() query: ListAttestationItemsQuery, @CurrentCaller() caller: Caller): Promise<Page<AttestationItemView>> {
    return this.attestations.items(caller, id, query);
  }

  @Get(':id/report')
  @RequirePermission('view:decisions')
  @ApiOperation({
    summary: "A campaign's report (CSV), streamed, with a download name",
    description:
      'One line per delegation: delegation display id, decision, holder, status, who answered and when, comment (RFC 4180; a cell starting with =, +, -, @ is prefixed with a quote). ' +
      'format: csv only (anything else is a 400).',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The CSV (not enveloped)', schema: { type: 'string', format: 'binary' } })
  @ApiBadRequestResponse({ description: 'format other than csv' })
  @ApiNotFoundResponse({ description: "Unknown, or another tenant's campaign" })
  async report(@UuidParam('id') id: string, @Query() _query: AttestationReportQuery, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply): Promise<void> {
    const report = await this.attestations.reportCsv(caller, id);
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${report.fileName}"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(Readable.from(report.lines));
  }

  @Post(':id/items/:delegationId/respond')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Answer for a delegation of a campaign (its holder)',
    description:
      'CONFIRMED or DISPUTED, with an optional comment, by whoever holds the delegation now (its recipient, or a holder of its position); once. ' +
      'A dispute flags the delegation for its issuer (attestationDisputed on the delegation, evt.decision.attestation.disputed). The same as completing the Attestation action.',
  })
  @ApiOkResponse({ type: AttestationItemView })
  @ApiBadRequestResponse({ description: 'outcome not CONFIRMED or DISPUTED, comment over 2000, an unknown field' })
  @ApiForbiddenResponse({ description: 'The caller does not hold the delegation' })
  @ApiNotFoundResponse({ description: "Unknown or another tenant's campaign, or a delegation it does not cover" })
  @ApiConflictResponse({ description: 'Answered already, the campaign is past due, or the delegation is no longer held' })
  @ResponseMessage('Attestation answered successfully')
  respond(@UuidParam('id') id: string, @UuidParam('delegationId') delegationId: string, @Body() body: RespondAttestationDto, @CurrentCaller() caller: Caller): Promise<AttestationItemView> {
    return this.attestations.respond(caller, id, delegationId, body);
  }
}
