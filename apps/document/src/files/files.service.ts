import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, Caller, ErrorCode, notFound } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { fileTypeFromBuffer } from 'file-type/core';
import { v7 as uuidv7 } from 'uuid';
import { fileLink } from '../core/file-link';
import { seesDocumentWithFile } from '../documents/document-refs';
import { FILE_STORE, FileStore } from './file-store';
import { MAX_FILE_BYTES, SAMPLE_BYTES, judgeContent, safeFileName } from './file.rules';
import { FILES_OPTIONS, FilesOptions } from './files.config';
import { FileView } from './dto/file.response';

/** An upload as the HTTP layer hands it over: the part's name, media type and content stream. */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  content: AsyncIterable<Buffer>;
}

/** A file's content to send back. */
export interface FileContent {
  name: string;
  type: string;
  size: number;
  stream: Readable;
}

/**
 * Uploaded files of a tenant: stored whole or not at all (the file row and its content commit
 * together), and read back only by their uploader or by callers who see a document using them.
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly db: Db,
    @Inject(FILE_STORE) private readonly store: FileStore,
    @Inject(FILES_OPTIONS) private readonly options: FilesOptions,
  ) {}

  /**
   * Stores an upload whose declared type is allowed and matches its content (judgeContent): the type
   * is detected from the first SAMPLE_BYTES (held while detecting), then the whole content streams
   * to the store, the sample first. A refused file is a 415 naming the field "file"; nothing is stored.
   */
  async upload(caller: Caller, file: IncomingFile, maxBytes = MAX_FILE_BYTES): Promise<FileView> {
    const { sample, complete, content } = await peek(file.content, SAMPLE_BYTES);
    const detected = (await fileTypeFromBuffer(sample))?.mime;
    const verdict = judgeContent(file.mimetype, detected, sample, complete, this.options.allowedTypes);
    if ('refused' in verdict) throw new AppError(ErrorCode.UnsupportedMediaType, verdict.refused, [{ field: 'file', message: verdict.problem }]);
    const type = verdict.type;
    const id = uuidv7();
    const name = safeFileName(file.filename);
    const stored = await this.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO document.files (id, tenant_id, name, media_type, storage, created_by) VALUES ($1, $2, $3, $4, $5, $6)`, [
        id,
        caller.tenantId,
        name,
        type,
        this.store.kind,
        caller.userId,
      ]);
      const written = await this.store.write(tx, { id, tenantId: caller.tenantId }, content, maxBytes, () => new AppError(ErrorCode.PayloadTooLarge, `A file may hold at most ${maxBytes} bytes`));
      await tx.query(`UPDATE document.files SET size = $2, sha256 = $3, complete = true WHERE id = $1`, [id, written.size, written.sha256]);
      return written;
    });
    return { id, name, type, size: stored.size, sha256: stored.sha256, link: fileLink(id) };
  }

  /** The content of a complete file of the tenant that the caller uploaded, or that a document they see uses; 404 otherwise. */
  async content(caller: Caller, id: string): Promise<FileContent> {
    const [row] = await this.db.query<{ name: string; media_type: string; size: string; created_by: string | null }>(
      `SELECT name, media_type, size, created_by FROM document.files WHERE id = $1 AND tenant_id = $2 AND complete`,
      [id, caller.tenantId],
    );
    if (!row || (row.created_by !== caller.userId && !(await seesDocumentWithFile(this.db, caller, id)))) throw notFound(`File ${id} not found`);
    const size = Number(row.size);
    return { name: row.name, type: row.media_type, size, stream: this.store.read(this.db, id, size) };
  }
}

/**
 * The first `bytes` of `content` (fewer when it ends before: `complete`), and the whole content
 * again, the sample first and the rest as it streams in.
 */
async function peek(content: AsyncIterable<Buffer>, bytes: number): Promise<{ sample: Buffer; complete: boolean; content: AsyncIterable<Buffer> }> {
  const parts = content[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  let complete = false;
  while (size < bytes) {
    const next = await parts.next();
    if (next.done) {
      complete = true;
      break;
    }
    head.push(next.value);
    size += next.value.length;
  }
  const sample = Buffer.concat(head);
  return {
    sample: sample.subarray(0, bytes),
    complete: complete && sample.length <= bytes,
    content: (async function* () {
      if (sample.length) yield sample;
      if (complete) return;
      for (let next = await parts.next(); !next.done; next = await parts.next()) yield next.value;
    })(),
  };
}
