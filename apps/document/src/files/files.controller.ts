import { Controller, Get, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, UuidParam } from '@ddm/contracts';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from './file.rules';
import { FilesService } from './files.service';

@ApiTags('Files')
@ApiAuth()
@Controller('v1/files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Get(':id/content')
  @ApiOperation({ summary: 'Download a file', description: 'Streams the content with its media type and a download name; only to its uploader and to callers who see a document using it.' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The file content (not enveloped)', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({ description: "Unknown, another tenant's, or used by no document the caller sees" })
  async content(@UuidParam('id') id: string, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.files.content(caller, id);
    await reply
      .header('content-type', file.type)
      .header('content-length', String(file.size))
      .header('content-disposition', contentDisposition(file.name))
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  }
}
