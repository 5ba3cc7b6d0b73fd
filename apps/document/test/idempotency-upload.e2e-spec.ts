import { randomBytes } from 'node:crypto';
import { expectErrorBody, startHarness } from '@ddm/testing';
import { documentApp, DocumentHarness } from './fixtures/document-app';

/** A multipart upload of `content` (with a Content-Length) under an Idempotency-Key; a fresh boundary each time, as clients make one. */
async function upload(url: string, token: string, key: string, content: Buffer) {
  const boundary = `----ddm${randomBytes(12).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await fetch(`${url}/document/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'idempotency-key': key },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

/**
 * The file upload streams its body to storage, so its Idempotency-Key fingerprint is the media
 * type and the declared Content-Length (libs/platform/src/idempotency.ts): a retry is recognised
 * and answered without storing the file again.
 */
describe('Idempotency-Key on the multipart file upload (e2e, real Postgres and NATS)', () => {
  let h: DocumentHarness;
  const files = async () => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document.files`))[0].n;

  beforeAll(async () => {
    h = await startHarness(documentApp);
  });
  afterAll(() => h?.close());

  it('a retry of the same upload replays the first answer and stores nothing; another length under the key is a 422', async () => {
    const key = `upload-${randomBytes(8).toString('hex')}`;
    const before = await files();
    const first = await upload(h.svc.url, h.tokens.admin, key, Buffer.from('first version of the notes'));
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: 'notes.txt', size: 26 });
    const retry = await upload(h.svc.url, h.tokens.admin, key, Buffer.from('first version of the notes'));
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await files()).toBe(before + 1);

    const other = await upload(h.svc.url, h.tokens.admin, key, Buffer.from('a longer, second version of the notes'));
    expectErrorBody(other, 422, '/document/v1/files');
    expect(await files()).toBe(before + 1);
    // The connection still serves requests after answers that left the upload unread.
    expect((await h.svc.http.get('/document/v1/documents?limit=1', { token: h.tokens.admin })).status).toBe(200);
  });
});
