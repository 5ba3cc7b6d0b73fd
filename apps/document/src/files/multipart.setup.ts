import fastifyMultipart from '@fastify/multipart';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { MAX_FILE_BYTES } from './file.rules';

/**
 * Teaches the document service's Fastify to read multipart/form-data (the file upload), streamed:
 * one file per request, a few small fields, the file cut one byte past MAX_FILE_BYTES so the
 * store sees it is too large (413) without ever holding it whole. Every other route keeps the
 * 1 MiB JSON limit; no other service parses multipart.
 */
@Injectable()
export class MultipartSetup implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(fastifyMultipart, {
      limits: { files: 1, fileSize: MAX_FILE_BYTES + 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 100 },
      throwFileSizeLimit: false,
    });
  }
}
