import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { ApiAuth, AppError, Caller, CurrentCaller, ErrorCode, RequirePermission, ResponseMessage, UPLOAD_BODY_LIMIT, UuidParam, badRequest } from '@ddm/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FileView } from './dto/file.response';
import { ALLOWED_MEDIA_TYPES, MAX_FILE_BYTES, contentDisposition } from './file.rules';
import { FilesService } from './files.service';

@ApiTags('Files')
@ApiAuth()
@Controller('v1/files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Post()
  @HttpCode(200)
  @RequirePermission('create:documents')
  @ApiOperation({
    summary: 'Upload a file',
    description: `multipart/form-data with one file in the field "file", at most ${MAX_FILE_BYTES} bytes (25 MiB), streamed to storage (never held whole). ` +
      `The part's media type must be allowed and match the content, which is checked from its bytes: a file whose bytes are of another type (a program labelled application/pdf) is refused. ` +
      `Text formats (text/plain, text/csv, text/markdown, image/svg+xml) have no signature: their content must be UTF-8 text with no binary signature. ` +
      `A part sent as application/octet-stream is stored as the type detected from its content. ` +
      `Accepted media types (FILES_ALLOWED_TYPES may narrow them): ${ALLOWED_MEDIA_TYPES.join(', ')}. A request whose Content-Length is over ${UPLOAD_BODY_LIMIT} bytes is refused (413) before its body is read. ` +
      `A document then names the file by fileId (documentUploadType UPLOADED).`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ type: FileView })
  @ApiBadRequestResponse({ description: 'No file in the request' })
  @ApiPayloadTooLargeResponse({ description: 'The file holds more than 25 MiB (nothing is stored)' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Not multipart/form-data, a media type outside the allow-list, or content that does not match the declared type (errors name the field "file")' })
  @ResponseMessage('File uploaded successfully')
  async upload(@Req() request: FastifyRequest, @CurrentCaller() caller: Caller): Promise<FileView> {
    if (!request.isMultipart()) throw new AppError(ErrorCode.UnsupportedMediaType, 'Send the file as multipart/form-data (one file in the field "file")');
    const part = await request.file();
    if (!part) throw badRequest('No file in the request: send one in the field "file"', [{ field: 'file', message: 'is required' }]);
    if (part.fieldname !== 'file') throw badRequest(`The file must come in the field "file", not "${part.fieldname}"`, [{ field: 'file', message: 'is required' }]);
    return this.files.upload(caller, { filename: part.filename, mimetype: part.mimetype, content: part.file });
  }

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
