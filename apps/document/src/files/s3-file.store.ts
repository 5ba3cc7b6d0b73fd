import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Queryable } from '@ddm/platform';
import { FileStore, StoredContent } from './file-store';
import { FilesS3Options } from './files.config';

/** Parts of a multipart upload (S3's smallest but the last) and how many go at once: at most PART_BYTES × (QUEUE + 1) in memory. */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE = 2;

/**
 * Files in S3-compatible object storage (production): each file one object, `<prefix><file id>`,
 * streamed in as a multipart upload (a few 5 MiB parts in memory at a time, never the whole file)
 * and streamed out. Too large a file aborts its upload, leaving no object. The file's row commits
 * in the database transaction after the object is written; a row that never commits leaves an
 * object no row names (never served: reads go through the row).
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly options: FilesS3Options) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint ?? undefined,
      forcePathStyle: options.forcePathStyle,
      credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
      // Plain payloads: S3-compatible servers need not speak the SDK's trailing-checksum encoding.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(fileId: string): string {
    return `${this.options.prefix}${fileId}`;
  }

  async write(_q: Queryable, file: { id: string; tenantId: string }, content: AsyncIterable<Buffer>, maxBytes: number, tooLarge: () => Error): Promise<StoredContent> {
    const hash = createHash('sha256');
    const body = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: this.key(file.id), Body: body },
      partSize: PART_BYTES,
      queueSize: QUEUE,
      leavePartsOnError: false,
    });
    const done = upload.done();
    let size = 0;
    try {
      for await (const part of content) {
        size += part.length;
        if (size > maxBytes) throw tooLarge();
        hash.update(part);
        // Back-pressure: wait while the upload's parts are in flight.
        if (!body.write(part)) await new Promise<void>((resolve) => body.once('drain', resolve));
      }
      body.end();
      await done;
    } catch (err) {
      body.destroy();
      await upload.abort().catch(() => undefined);
      await done.catch(() => undefined);
      throw err;
    }
    return { size, sha256: hash.digest('hex') };
  }

  read(_q: Queryable, fileId: string): Readable {
    const out = new PassThrough();
    this.client
      .send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(fileId) }))
      .then((res) => (res.Body as Readable).pipe(out))
      .catch((err: Error) => out.destroy(err));
    return out;
  }
}
