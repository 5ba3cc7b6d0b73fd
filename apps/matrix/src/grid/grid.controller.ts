import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, JsonText, Public, ResponseMessage, UuidParam } from '@ddm/contracts';
import type { FastifyReply } from 'fastify';
import { ExportQuery, GridQuery } from './dto/grid.query';
import { GridPageView, SharedGridView } from './dto/grid.response';
import { ExportFile, GridService } from './grid.service';

async function sendFile(reply: FastifyReply, file: ExportFile): Promise<void> {
  await reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(file.body);
}

@ApiTags('Matrices')
@ApiAuth()
@Controller('v1/matrix')
export class GridController {
  constructor(private readonly grid: GridService) {}

  @Get(':id/grid')
  @ApiOperation({
    summary: 'The matrix grid: decisions × users, positions or groups, paged by rows',
    description: 'Each cell lists the delegations held there. With `at`, the grid as it stood at that instant.',
  })
  @ApiOkResponse({ type: GridPageView })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees' })
  @ResponseMessage('Matrix grid retrieved successfully')
  async get(@UuidParam('id') id: string, @Query() q: GridQuery, @CurrentCaller() caller: Caller): Promise<JsonText> {
    const m = await this.grid.forCaller(caller, id);
    return this.grid.pageJson(m, q.page, q.limit, q.at);
  }

  @Get(':id/export')
  @ApiOperation({ summary: 'Export the grid (CSV or XLSX), streamed, with a download name' })
  @ApiProduces('text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
  @ApiOkResponse({ description: 'The file (not enveloped)', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({ description: 'No such matrix the caller sees' })
  async export(@UuidParam('id') id: string, @Query() q: ExportQuery, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply): Promise<void> {
    const m = await this.grid.forCaller(caller, id);
    await sendFile(reply, await this.grid.export(m, q.format, q.at));
  }
}

/** The only routes without the bearer guard: a matrix and its grid, read-only, through its external link. */
@ApiTags('Shared matrices')
@Controller('v1/shared')
export class SharedController {
  constructor(private readonly grid: GridService) {}

  @Get(':token')
  @Public()
  @ApiOperation({ summary: 'A matrix and a page of its grid through its external link (no bearer token)' })
  @ApiHeader({ name: 'X-Share-Password', required: false, description: 'The link’s password, when it has one' })
  @ApiOkResponse({ type: SharedGridView })
  @ApiUnauthorizedResponse({ description: 'Missing or wrong password' })
  @ApiNotFoundResponse({ description: 'Unknown, disabled or expired link' })
  @ApiTooManyRequestsResponse({ description: '10 wrong passwords in 15 minutes' })
  @ResponseMessage('Shared matrix retrieved successfully')
  async get(@Param('token') token: string, @Headers('x-share-password') password: string | undefined, @Query() q: GridQuery): Promise<JsonText> {
    const m = await this.grid.forToken(token, password);
    // SharedGridView { matrix, grid }: the grid as kept (its compressed blocks too).
    const grid = await this.grid.pageJson(m, q.page, q.limit, q.at);
    return JsonText.join([`{"matrix":${JSON.stringify(this.grid.shared(m))},"grid":`, grid, '}']);
  }

  @Get(':token/export')
  @Public()
  @ApiOperation({ summary: 'Export the grid through its external link (no bearer token)' })
  @ApiHeader({ name: 'X-Share-Password', required: false, description: 'The link’s password, when it has one' })
  @ApiProduces('text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
  @ApiOkResponse({ description: 'The file (not enveloped)', schema: { type: 'string', format: 'binary' } })
  @ApiUnauthorizedResponse({ description: 'Missing or wrong password' })
  @ApiNotFoundResponse({ description: 'Unknown, disabled or expired link' })
  @ApiTooManyRequestsResponse({ description: '10 wrong passwords in 15 minutes' })
  async export(@Param('token') token: string, @Headers('x-share-password') password: string | undefined, @Query() q: ExportQuery, @Res() reply: FastifyReply): Promise<void> {
    const m = await this.grid.forToken(token, password);
    await sendFile(reply, await this.grid.export(m, q.format, q.at));
  }
}
