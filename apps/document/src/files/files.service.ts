import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, Caller, ErrorCode, notFound } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { fileLink } from '../core/file-link';
import { seesDocumentWithFile } from '../documents/document-refs';
import { FILE_STORE, FileStore } from './file-store';
import { ALLOWED_MEDIA_TYPES, MAX_FILE_BYTES, bareMediaType, isAllowedMediaType, safeFileName } from './file.rules';
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
  ) {}

  async upload(caller: Caller, file: IncomingFile, maxBytes = MAX_FILE_BYTES): Promise<FileView> {
    const type = bareMediaType(file.mimetype);
    if (!isAllowedMediaType(type)) throw new AppError(ErrorCode.UnsupportedMediaType, `Files of type "${type}" are not accepted; accepted: ${ALLOWED_MEDIA_TYPES.join(', ')}`);
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
      const content = await this.store.write(tx, { id, tenantId: caller.tenantId }, file.content, maxBytes, () => new AppError(ErrorCode.PayloadTooLarge, `A file may hold at most ${maxBytes} bytes`));
      await tx.query(`UPDATE document.files SET size = $2, sha256 = $3, complete = true WHERE id = $1`, [id, content.size, content.sha256]);
      return content;
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
