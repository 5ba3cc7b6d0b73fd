import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { expectErrorBody } from '@ddm/testing';
import { DocumentHarness, startDocument } from './fixtures/harness';

const MiB = 1024 * 1024;

/** `bytes` of deterministic content in 64 KiB parts, never held whole; `hash` is its SHA-256 once consumed. */
function content(bytes: number): { parts: AsyncIterable<Buffer>; hash: () => string } {
  const hash = createHash('sha256');
  return {
    parts: (async function* () {
      const part = 64 * 1024;
      for (let offset = 0, n = 0; offset < bytes; offset += part, n++) {
        const b = Buffer.alloc(Math.min(part, bytes - offset), n % 251);
        hash.update(b);
        yield b;
      }
    })(),
    hash: () => hash.digest('hex'),
  };
}

/**
 * POST /document/v1/files as a client sends it: multipart/form-data, chunked (no Content-Length),
 * the body generated as it is sent. Answers the status and the parsed body.
 */
async function upload(url: string, token: string, file: { name: string; type: string; parts: AsyncIterable<Buffer> }, field = 'file'): Promise<{ status: number; body: Record<string, any> }> {
  const boundary = `----ddm${randomBytes(12).toString('hex')}`;
  const body = Readable.from(
    (async function* () {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`);
      yield* file.parts;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    })(),
  );
  const res = await fetch(`${url}/document/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Readable.toWeb(body) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('document files (e2e, PostgreSQL storage, real Postgres and NATS)', () => {
  let h: DocumentHarness;
  const stored = async () => (await h.db.query<{ files: number; chunks: number }>(`SELECT (SELECT count(*)::int FROM document.files) AS files, (SELECT count(*)::int FROM document.file_chunks) AS chunks`))[0];

  beforeAll(async () => {
    h = await startDocument();
  });
  afterAll(() => h?.close());

  it('stores a 20 MiB upload over HTTP as it streams in (the process grows by less than 64 MiB) and streams it back to who may see it', async () => {
    const body = content(20 * MiB);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    let res;
    try {
      res = await upload(h.svc.url, h.tokens.admin, { name: '../reports/Q1 report.pdf', type: 'application/pdf; charset=binary', parts: body.parts });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    // The service runs in this process: its growth is counted too.
    expect(peak - before).toBeLessThan(64 * MiB);
    expect(res.status).toBe(200);
    const view = res.body.data;
    expect(view).toEqual({ id: expect.any(String), name: 'Q1 report.pdf', type: 'application/pdf', size: 20 * MiB, sha256: body.hash(), link: `/document/v1/files/${view.id}/content` });
    const [row] = await h.db.query<{ chunks: number; biggest: number }>(`SELECT count(*)::int AS chunks, max(length(data))::int AS biggest FROM document.file_chunks WHERE file_id = $1`, [view.id]);
    expect(row).toEqual({ chunks: 20, biggest: MiB });

    // The uploader reads it; a restricted document using it lets its audience read it, no one else.
    const mine = await fetch(`${h.svc.url}${view.link}`, { headers: { authorization: `Bearer ${h.tokens.admin}` } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('application/pdf');
    expect(mine.headers.get('content-disposition')).toBe(`attachment; filename="Q1 report.pdf"; filename*=UTF-8''Q1%20report.pdf`);
    expect(createHash('sha256').update(Buffer.from(await mine.arrayBuffer())).digest('hex')).toBe(view.sha256);

    const doc = await h.svc.http.post('/document/v1/documents', {
      token: h.tokens.admin,
      body: { documentName: 'Quarterly report', documentUploadType: 'UPLOADED', fileId: view.id, documentSharingType: 'RESTRICTED' },
    });
    expect(doc.status).toBe(200);
    expect(doc.body.data.file).toEqual({ id: view.id, name: 'Q1 report.pdf', type: 'application/pdf', size: 20 * MiB, sha256: view.sha256, link: view.link });
    expectErrorBody(await h.svc.http.get(view.link, { token: h.tokens.user }), 404);
    expectErrorBody(await h.svc.http.get(view.link, { token: h.tokens.otherAdmin }), 404);
    expect((await h.svc.http.get(view.link, { token: h.tokens.auditor })).status).toBe(200);
    await h.svc.http.patch(`/document/v1/documents/${doc.body.data.id}`, { token: h.tokens.admin, body: { documentSharingType: 'TENANT' } });
    const shared = await fetch(`${h.svc.url}${view.link}`, { headers: { authorization: `Bearer ${h.tokens.user}` } });
    expect(shared.status).toBe(200);
    expect(Number(shared.headers.get('content-length'))).toBe(20 * MiB);
    await shared.arrayBuffer();
  });

  it('refuses a file over 25 MiB with 413 and stores nothing of it; exactly 25 MiB is taken', async () => {
    const before = await stored();
    const huge = await upload(h.svc.url, h.tokens.admin, { name: 'huge.pdf', type: 'application/pdf', parts: content(26 * MiB).parts });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ statusCode: 413, message: expect.stringMatching(/at most 26214400 bytes/) });
    expect(await stored()).toEqual(before);
    const edge = await upload(h.svc.url, h.tokens.admin, { name: 'edge.pdf', type: 'application/pdf', parts: content(25 * MiB).parts });
    expect(edge.status).toBe(200);
    expect(edge.body.data.size).toBe(25 * MiB);
  });

  it('refuses a media type outside the allow-list with 415, a body that is not multipart with 415, no file with 400, an Auditor with 403', async () => {
    const before = await stored();
    const exe = await upload(h.svc.url, h.tokens.admin, { name: 'tool.exe', type: 'application/x-msdownload', parts: content(1024).parts });
    expect(exe.status).toBe(415);
    expect(exe.body.message).toMatch(/application\/x-msdownload/);
    expect(await stored()).toEqual(before);
    expectErrorBody(await h.svc.http.post('/document/v1/files', { token: h.tokens.admin, body: { file: 'not a file' } }), 415);
    const wrongField = await upload(h.svc.url, h.tokens.admin, { name: 'notes.txt', type: 'text/plain', parts: content(10).parts }, 'attachment');
    expect(wrongField.status).toBe(400);
    expect((await upload(h.svc.url, h.tokens.auditor, { name: 'notes.txt', type: 'text/plain', parts: content(10).parts })).status).toBe(403);
    const text = await upload(h.svc.url, h.tokens.admin, { name: 'notes.txt', type: 'text/plain', parts: content(10).parts });
    expect(text.status).toBe(200);
    expect(text.body.data).toMatchObject({ type: 'text/plain', size: 10 });
  });

  it('answers 404 for an unknown file, and 400 for a malformed id', async () => {
    expectErrorBody(await h.svc.http.get('/document/v1/files/0190f5c4-0000-7000-8000-000000000001/content', { token: h.tokens.admin }), 404);
    expectErrorBody(await h.svc.http.get('/document/v1/files/nope/content', { token: h.tokens.admin }), 400);
  });
});
