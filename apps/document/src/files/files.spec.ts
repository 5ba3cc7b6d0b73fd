import { PgFileStore } from './pg-file.store';
import { CHUNK_BYTES, bareMediaType, contentDisposition, isAllowedMediaType, safeFileName } from './file.rules';
import { loadFilesOptions } from './files.config';

describe('file rules', () => {
  it('accepts PDF, Office documents, images and text, whatever the parameters and case', () => {
    expect(isAllowedMediaType('application/pdf')).toBe(true);
    expect(isAllowedMediaType('Text/Plain; charset=utf-8')).toBe(true);
    expect(isAllowedMediaType('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(true);
    expect(isAllowedMediaType('image/png')).toBe(true);
    expect(isAllowedMediaType('application/x-msdownload')).toBe(false);
    expect(isAllowedMediaType('text/html')).toBe(false);
    expect(bareMediaType(' IMAGE/JPEG ;q=1')).toBe('image/jpeg');
  });

  it('keeps the last segment of a name, without control characters or quotes', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\me\\report "final".pdf')).toBe('report final.pdf');
    expect(safeFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(safeFileName('   ')).toBe('file');
    expect(safeFileName('x'.repeat(300))).toHaveLength(255);
  });

  it('offers the download under an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('Bericht Ü.pdf')).toBe(`attachment; filename="Bericht _.pdf"; filename*=UTF-8''Bericht%20%C3%9C.pdf`);
  });
});

describe('the PostgreSQL store', () => {
  /** A Queryable that records the chunks written and answers them back. */
  const memory = () => {
    const rows = new Map<number, Buffer>();
    return {
      rows,
      query: async (text: string, params: unknown[] = []) => {
        if (text.startsWith('INSERT')) rows.set(params[2] as number, params[3] as Buffer);
        else return rows.has(params[1] as number) ? [{ data: rows.get(params[1] as number) }] : [];
        return [];
      },
    };
  };
  const parts = async function* (sizes: number[]) {
    for (const s of sizes) yield Buffer.alloc(s, 7);
  };

  it('writes chunks of 1 MiB (the last one shorter) and reads them back in order', async () => {
    const q = memory();
    const store = new PgFileStore();
    const written = await store.write(q as never, { id: 'f', tenantId: 't' }, parts([700_000, 700_000, 700_000]), 10 * CHUNK_BYTES, () => new Error('too large'));
    expect(written.size).toBe(2_100_000);
    expect([...q.rows.keys()]).toEqual([0, 1, 2]);
    expect([...q.rows.values()].map((b) => b.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, 2_100_000 - 2 * CHUNK_BYTES]);
    let total = 0;
    for await (const chunk of store.read(q as never, 'f', written.size)) total += (chunk as Buffer).length;
    expect(total).toBe(2_100_000);
  });

  it('stops at the limit with the error it is given', async () => {
    await expect(new PgFileStore().write(memory() as never, { id: 'f', tenantId: 't' }, parts([600, 600]), 1000, () => new Error('too large'))).rejects.toThrow('too large');
  });
});

describe('loadFilesOptions', () => {
  it('defaults to PostgreSQL; s3 needs a bucket name, and credentials come in pairs', () => {
    expect(loadFilesOptions({})).toEqual({ storage: 'postgres', s3: null });
    expect(() => loadFilesOptions({ FILES_STORAGE: 'disk' })).toThrow(/FILES_STORAGE must be postgres or s3/);
    expect(() => loadFilesOptions({ FILES_STORAGE: 's3' })).toThrow(/FILES_S3_BUCKET/);
    expect(() => loadFilesOptions({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'Bad_Bucket' })).toThrow(/FILES_S3_BUCKET/);
    expect(() => loadFilesOptions({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'ddm-files', FILES_S3_ACCESS_KEY_ID: 'a' })).toThrow(/go together/);
    expect(() => loadFilesOptions({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'ddm-files', FILES_S3_ENDPOINT: 'ftp://x' })).toThrow(/FILES_S3_ENDPOINT/);
    expect(loadFilesOptions({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'ddm-files' }).s3).toEqual({
      bucket: 'ddm-files', region: 'us-east-1', endpoint: null, forcePathStyle: false, accessKeyId: null, secretAccessKey: null, prefix: 'files/',
    });
    expect(loadFilesOptions({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'ddm-files', FILES_S3_ENDPOINT: 'http://minio:9000', FILES_S3_ACCESS_KEY_ID: 'k', FILES_S3_SECRET_ACCESS_KEY: 's' }).s3).toMatchObject({
      endpoint: 'http://minio:9000', forcePathStyle: true, accessKeyId: 'k', secretAccessKey: 's',
    });
  });
});
