import { createHash } from 'node:crypto';
import { AppError, Caller } from '@ddm/contracts';
import { expectErrorBody } from '@ddm/testing';
import { FilesService } from '../src/files/files.service';
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

describe('document files (e2e, PostgreSQL storage, real Postgres and NATS)', () => {
  let h: DocumentHarness;
  let files: FilesService;
  let caller: Caller;
  const stored = async () => (await h.db.query<{ files: number; chunks: number }>(`SELECT (SELECT count(*)::int FROM document.files) AS files, (SELECT count(*)::int FROM document.file_chunks) AS chunks`))[0];

  beforeAll(async () => {
    h = await startDocument();
    files = h.svc.app.get(FilesService);
    const admin = h.refs.users.get('admin@demo.test')!;
    caller = { userId: admin.id, tenantId: h.demo.id, email: admin.email, name: admin.name ?? '', roleIds: [], keys: new Set(), claims: {} as Caller['claims'] };
  });
  afterAll(() => h?.close());

  it('stores a 20 MiB upload as it streams in (the process grows by less than 64 MiB) and streams it back to who may see it', async () => {
    const body = content(20 * MiB);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    let view;
    try {
      view = await files.upload(caller, { filename: '../reports/Q1 report.pdf', mimetype: 'application/pdf; charset=binary', content: body.parts });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(peak - before).toBeLessThan(64 * MiB);
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

  it('refuses a file over 25 MiB with 413 and stores nothing of it', async () => {
    const before = await stored();
    const upload = files.upload(caller, { filename: 'huge.pdf', mimetype: 'application/pdf', content: content(26 * MiB).parts });
    await expect(upload).rejects.toBeInstanceOf(AppError);
    await expect(files.upload(caller, { filename: 'huge.pdf', mimetype: 'application/pdf', content: content(26 * MiB).parts })).rejects.toMatchObject({ status: 413 });
    expect(await stored()).toEqual(before);
  });

  it('refuses a media type outside the allow-list with 415 before reading it', async () => {
    let read = false;
    const parts = (async function* () {
      read = true;
      yield Buffer.from('MZ');
    })();
    await expect(files.upload(caller, { filename: 'tool.exe', mimetype: 'application/x-msdownload', content: parts })).rejects.toMatchObject({ status: 415 });
    expect(read).toBe(false);
    const text = await files.upload(caller, { filename: 'notes.txt', mimetype: 'text/plain', content: content(10).parts });
    expect(text).toMatchObject({ type: 'text/plain', size: 10 });
  });

  it('answers 404 for an unknown file, and 400 for a malformed id', async () => {
    expectErrorBody(await h.svc.http.get('/document/v1/files/0190f5c4-0000-7000-8000-000000000001/content', { token: h.tokens.admin }), 404);
    expectErrorBody(await h.svc.http.get('/document/v1/files/nope/content', { token: h.tokens.admin }), 400);
  });
});
