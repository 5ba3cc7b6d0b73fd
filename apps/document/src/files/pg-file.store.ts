import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Queryable } from '@ddm/platform';
import { FileStore, StoredContent } from './file-store';
import { CHUNK_BYTES } from './file.rules';

/**
 * Files in PostgreSQL: `document.file_chunks` rows of at most 1 MiB, written as the upload streams
 * in and read back one row at a time, so a file is never held whole in memory.
 */
export class PgFileStore implements FileStore {
  readonly kind = 'postgres';

  async write(q: Queryable, file: { id: string; tenantId: string }, content: AsyncIterable<Buffer>, maxBytes: number, tooLarge: () => Error): Promise<StoredContent> {
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (all: boolean) => {
      while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
        const joined = Buffer.concat(pending, pendingBytes);
        const chunk = joined.subarray(0, Math.min(CHUNK_BYTES, joined.length));
        const rest = joined.subarray(chunk.length);
        await q.query(`INSERT INTO document.file_chunks (file_id, tenant_id, seq, data) VALUES ($1, $2, $3, $4)`, [file.id, file.tenantId, seq++, chunk]);
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
      }
    };
    for await (const part of content) {
      size += part.length;
      if (size > maxBytes) throw tooLarge();
      hash.update(part);
      pending.push(part);
      pendingBytes += part.length;
      await flush(false);
    }
    await flush(true);
    return { size, sha256: hash.digest('hex') };
  }

  read(q: Queryable, fileId: string, size: number): Readable {
    const chunks = Math.ceil(size / CHUNK_BYTES);
    return Readable.from(
      (async function* () {
        for (let seq = 0; seq < chunks; seq++) {
          const [row] = await q.query<{ data: Buffer }>(`SELECT data FROM document.file_chunks WHERE file_id = $1 AND seq = $2`, [fileId, seq]);
          if (!row) throw new Error(`file ${fileId}: chunk ${seq} is missing`);
          yield row.data;
        }
      })(),
      { objectMode: false },
    );
  }
}
