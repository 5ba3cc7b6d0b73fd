import { Readable } from 'node:stream';
import type { Queryable } from '@ddm/platform';

/** What a store answers once it has written a file's content. */
export interface StoredContent {
  size: number;
  sha256: string;
}

/**
 * Where files' content lives, behind one interface: PostgreSQL (the default, chunked, in the
 * document schema) or S3-compatible object storage. `write` consumes the stream (never holding it
 * whole) in the caller's transaction for the database store; it fails with `tooLarge()` past the
 * limit, leaving nothing once the transaction rolls back.
 */
export interface FileStore {
  readonly kind: string;
  /** Stores `content` of the file (its `files` row written first, in the same transaction `q`). */
  write(q: Queryable, file: { id: string; tenantId: string }, content: AsyncIterable<Buffer>, maxBytes: number, tooLarge: () => Error): Promise<StoredContent>;
  read(q: Queryable, fileId: string, size: number): Readable;
}

export const FILE_STORE = Symbol('FILE_STORE');
