import { PgFileStore } from './pg-file.store';
import { ALLOWED_MEDIA_TYPES, CHUNK_BYTES, bareMediaType, contentDisposition, isAllowedMediaType, isText, judgeContent, safeFileName } from './file.rules';
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
    expect(loadFilesOptions({})).toEqual({ storage: 'postgres', s3: null, allowedTypes: ALLOWED_MEDIA_TYPES });
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

describe('judgeContent: the declared type against the allow-list and the bytes', () => {
  const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
  const exe = Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]);
  const all = ALLOWED_MEDIA_TYPES;

  it('takes a file whose bytes are of its declared type, whatever the parameters and case', () => {
    expect(judgeContent('Application/PDF; charset=binary', 'application/pdf', pdf, true, all)).toEqual({ type: 'application/pdf' });
    expect(judgeContent('application/msword', 'application/x-cfb', Buffer.alloc(8), true, all)).toEqual({ type: 'application/msword' });
    expect(judgeContent('image/png', 'image/png', Buffer.alloc(8), true, all)).toEqual({ type: 'image/png' });
  });

  it('refuses bytes of another type than the declared one, naming both', () => {
    const verdict = judgeContent('application/pdf', 'application/x-msdownload', exe, true, all);
    expect(verdict).toEqual({
      refused: 'The content of the file does not match its declared type "application/pdf": its bytes are application/x-msdownload',
      problem: 'content is application/x-msdownload, not application/pdf',
    });
    expect(judgeContent('application/pdf', undefined, Buffer.from('hello'), true, all)).toMatchObject({ problem: 'content is of no known type, not application/pdf' });
    expect(judgeContent('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/zip', Buffer.alloc(8), true, all)).toHaveProperty('refused');
  });

  it('refuses a type outside the allow-list, even when the bytes are of that type', () => {
    expect(judgeContent('application/x-msdownload', 'application/x-msdownload', exe, true, all)).toMatchObject({ refused: expect.stringMatching(/^Files of type "application\/x-msdownload" are not accepted/) });
    expect(judgeContent('image/png', 'image/png', Buffer.alloc(8), true, ['application/pdf'])).toMatchObject({ refused: 'Files of type "image/png" are not accepted; accepted: application/pdf' });
  });

  it('takes text formats only when the bytes are text with no binary signature; SVG must hold an <svg> element', () => {
    expect(judgeContent('text/csv', undefined, Buffer.from('id,name\r\n1,Zoë\r\n'), true, all)).toEqual({ type: 'text/csv' });
    expect(judgeContent('text/plain', 'application/xml', Buffer.from('<?xml version="1.0"?><a/>'), true, all)).toEqual({ type: 'text/plain' });
    expect(judgeContent('text/plain', 'application/x-msdownload', exe, true, all)).toMatchObject({ problem: 'content is application/x-msdownload, not text/plain' });
    expect(judgeContent('text/plain', undefined, Buffer.from('a\u0000b'), true, all)).toMatchObject({ problem: 'content is not text, not text/plain' });
    expect(judgeContent('text/plain', undefined, Buffer.from([0x61, 0xff, 0x62]), true, all)).toHaveProperty('refused');
    expect(judgeContent('image/svg+xml', 'application/xml', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), true, all)).toEqual({ type: 'image/svg+xml' });
    expect(judgeContent('image/svg+xml', undefined, Buffer.from('just words'), true, all)).toHaveProperty('refused');
  });

  it('stores a file sent as application/octet-stream as the type detected, when it is allowed and has a signature', () => {
    expect(judgeContent('application/octet-stream', 'application/pdf', pdf, true, all)).toEqual({ type: 'application/pdf' });
    expect(judgeContent('application/octet-stream', 'application/x-msdownload', exe, true, all)).toHaveProperty('refused');
    expect(judgeContent('application/octet-stream', undefined, Buffer.from('plain words'), true, all)).toHaveProperty('refused');
  });

  it('does not hold a UTF-8 character cut at the end of a sample against it, only at the end of a whole file', () => {
    const cut = Buffer.from('caf\u00e9').subarray(0, 4);
    expect(isText(cut, false)).toBe(true);
    expect(isText(cut, true)).toBe(false);
    expect(isText(Buffer.from('\ufeffline one\tcol\r\n\f'), true)).toBe(true);
  });
});

describe('FILES_ALLOWED_TYPES', () => {
  it('narrows the allow-list; a type whose content cannot be checked stops the service, naming the variable', () => {
    expect(loadFilesOptions({ FILES_ALLOWED_TYPES: ' application/pdf, IMAGE/PNG,application/pdf ' }).allowedTypes).toEqual(['application/pdf', 'image/png']);
    expect(loadFilesOptions({ FILES_ALLOWED_TYPES: '' }).allowedTypes).toEqual(ALLOWED_MEDIA_TYPES);
    expect(() => loadFilesOptions({ FILES_ALLOWED_TYPES: 'application/pdf,application/x-msdownload' })).toThrow(/FILES_ALLOWED_TYPES holds "application\/x-msdownload"/);
  });
});
