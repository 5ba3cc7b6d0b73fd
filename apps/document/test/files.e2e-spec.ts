import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { expectErrorBody, startHarness } from '@ddm/testing';
import { documentApp, DocumentHarness } from './fixtures/document-app';

const MiB = 1024 * 1024;

/**
 * `bytes` of deterministic content in 64 KiB parts, never held whole; `hash` is its SHA-256 once
 * consumed. A PDF by its bytes (the service checks the content against the declared type), or text.
 */
function content(bytes: number, kind: 'pdf' | 'text' = 'pdf'): { parts: AsyncIterable<Buffer>; hash: () => string } {
  const hash = createHash('sha256');
  return {
    parts: (async function* () {
      const part = 64 * 1024;
      for (let offset = 0, n = 0; offset < bytes; offset += part, n++) {
        const b = Buffer.alloc(Math.min(part, bytes - offset), kind === 'text' ? 0x61 + (n % 26) : n % 251);
        if (offset === 0 && kind === 'pdf') b.write('%PDF-1.7\n');
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

const BUCKET = 'ddm-files';

/**
 * A storage backend for the same specs: PostgreSQL (the default) or S3, against a real
 * S3-compatible server (s3rver) the spec starts on a free port, with its data in a temporary folder.
 */
interface Backend {
  name: string;
  /** Starts what the backend needs; answers the service's FILES_* environment. */
  start(): Promise<Record<string, string>>;
  stop(): Promise<void>;
  /** What the backend holds beside the file rows (chunks, or objects). */
  held(h: DocumentHarness): Promise<number>;
}

const postgres: Backend = {
  name: 'PostgreSQL storage',
  start: async () => ({ FILES_STORAGE: 'postgres' }),
  stop: async () => undefined,
  held: async (h) => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document.file_chunks`))[0].n,
};

function s3(): Backend {
  let server: S3rver | undefined;
  let dir = '';
  let client: S3Client | undefined;
  return {
    name: 'S3 storage (s3rver)',
    async start() {
      dir = mkdtempSync(join(tmpdir(), 'ddm-s3-'));
      server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
      const address = (await server.run()) as AddressInfo;
      const endpoint = `http://127.0.0.1:${address.port}`;
      client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      return { FILES_STORAGE: 's3', FILES_S3_BUCKET: BUCKET, FILES_S3_ENDPOINT: endpoint, FILES_S3_ACCESS_KEY_ID: 'S3RVER', FILES_S3_SECRET_ACCESS_KEY: 'S3RVER' };
    },
    async stop() {
      client?.destroy();
      await server?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
    held: async () => (await client!.send(new ListObjectsV2Command({ Bucket: BUCKET }))).KeyCount ?? 0,
  };
}

describe.each([postgres, s3()])('document files (e2e, $name, real Postgres and NATS)', (backend) => {
  let h: DocumentHarness;
  const stored = async () => ({ files: (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document.files`))[0].n, held: await backend.held(h) });
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    // The service reads its storage settings from the environment when it starts (in this process).
    const env = await backend.start();
    for (const [k, v] of Object.entries(env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    h = await startHarness(documentApp);
  });
  afterAll(async () => {
    await h?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await backend.stop();
  });

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
    const [row] = await h.db.query<{ storage: string; chunks: number; biggest: number | null }>(
      `SELECT f.storage, (SELECT count(*)::int FROM document.file_chunks c WHERE c.file_id = f.id) AS chunks,
              (SELECT max(length(c.data))::int FROM document.file_chunks c WHERE c.file_id = f.id) AS biggest FROM document.files f WHERE f.id = $1`,
      [view.id],
    );
    expect(row).toEqual(backend === postgres ? { storage: 'postgres', chunks: 20, biggest: MiB } : { storage: 's3', chunks: 0, biggest: null });

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
    const wrongField = await upload(h.svc.url, h.tokens.admin, { name: 'notes.txt', type: 'text/plain', parts: content(10, 'text').parts }, 'attachment');
    expect(wrongField.status).toBe(400);
    expect((await upload(h.svc.url, h.tokens.auditor, { name: 'notes.txt', type: 'text/plain', parts: content(10, 'text').parts })).status).toBe(403);
    const text = await upload(h.svc.url, h.tokens.admin, { name: 'notes.txt', type: 'text/plain', parts: content(10, 'text').parts });
    expect(text.status).toBe(200);
    expect(text.body.data).toMatchObject({ type: 'text/plain', size: 10 });
  });

  it('answers 404 for an unknown file, and 400 for a malformed id', async () => {
    expectErrorBody(await h.svc.http.get('/document/v1/files/0190f5c4-0000-7000-8000-000000000001/content', { token: h.tokens.admin }), 404);
    expectErrorBody(await h.svc.http.get('/document/v1/files/nope/content', { token: h.tokens.admin }), 400);
  });
});
