import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { expectErrorBody, startHarness } from '@ddm/testing';
import { documentApp, DocumentHarness } from './fixtures/document-app';

const MiB = 1024 * 1024;

/** A small PDF as a PDF writer makes it. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
    'trailer\n<< /Root 1 0 R >>\n%%EOF\n',
);
/** The start of a Windows program (the MZ header of a PE file). */
const EXE = Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00]), Buffer.alloc(112)]);
/** A GIF89a of one pixel. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** The multipart body of one file in the field "file", with the boundary of its Content-Type. */
function multipart(name: string, type: string, bytes: Buffer): { boundary: string; head: Buffer; tail: Buffer; body: Buffer } {
  const boundary = `----ddm${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { boundary, head, tail, body: Buffer.concat([head, bytes, tail]) };
}

/**
 * The upload checks what a file is from its bytes (file-type), not from what the client declares,
 * against the allow-list (FILES_ALLOWED_TYPES, here without GIF), and refuses a body declared too
 * large before reading it, in a way a client still sending reads.
 */
describe('document file uploads: the content against the declared type (e2e, real Postgres and NATS)', () => {
  let h: DocumentHarness;
  const saved = process.env.FILES_ALLOWED_TYPES;
  const files = async () => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document.files`))[0].n;

  const upload = async (name: string, type: string, bytes: Buffer) => {
    const { boundary, body } = multipart(name, type, bytes);
    const res = await fetch(`${h.svc.url}/document/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.tokens.admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
  };

  beforeAll(async () => {
    // The service reads its settings from the environment when it starts (in this process).
    process.env.FILES_ALLOWED_TYPES = 'application/pdf,image/png,image/jpeg,text/plain,text/csv';
    h = await startHarness(documentApp);
  });
  afterAll(async () => {
    await h?.close();
    if (saved === undefined) delete process.env.FILES_ALLOWED_TYPES;
    else process.env.FILES_ALLOWED_TYPES = saved;
  });

  it('accepts a PDF that is a PDF, and a text file that is text', async () => {
    const pdf = await upload('policy.pdf', 'application/pdf', PDF);
    expect(pdf.status).toBe(200);
    expect(pdf.body.data).toMatchObject({ name: 'policy.pdf', type: 'application/pdf', size: PDF.length });
    const back = await fetch(`${h.svc.url}${pdf.body.data.link}`, { headers: { authorization: `Bearer ${h.tokens.admin}` } });
    expect(Buffer.from(await back.arrayBuffer()).equals(PDF)).toBe(true);
    const csv = await upload('list.csv', 'text/csv', Buffer.from('id,name\r\n1,Zoë\r\n'));
    expect(csv.status).toBe(200);
    expect(csv.body.data.type).toBe('text/csv');
    // A client that does not know the type: stored as what the bytes are.
    const unknown = await upload('scan', 'application/octet-stream', PDF);
    expect(unknown.status).toBe(200);
    expect(unknown.body.data.type).toBe('application/pdf');
  });

  it('refuses the bytes of a Windows program labelled application/pdf with 415 naming the field, and stores nothing', async () => {
    const before = await files();
    const res = await upload('invoice.pdf', 'application/pdf', EXE);
    expectErrorBody(res, 415, '/document/v1/files');
    expect(res.body.message).toBe('The content of the file does not match its declared type "application/pdf": its bytes are application/x-msdownload');
    expect(res.body.errors).toEqual([{ field: 'file', message: 'content is application/x-msdownload, not application/pdf' }]);
    // Nor as text: text must be text.
    const asText = await upload('notes.txt', 'text/plain', EXE);
    expectErrorBody(asText, 415);
    expect(asText.body.errors).toEqual([{ field: 'file', message: 'content is application/x-msdownload, not text/plain' }]);
    expect(await files()).toBe(before);
  });

  it('refuses a type outside the allow-list with 415 naming the field, even when the bytes are of that type', async () => {
    const before = await files();
    const gif = await upload('pixel.gif', 'image/gif', GIF);
    expectErrorBody(gif, 415, '/document/v1/files');
    expect(gif.body.message).toBe('Files of type "image/gif" are not accepted; accepted: application/pdf, image/png, image/jpeg, text/plain, text/csv');
    expect(gif.body.errors).toEqual([{ field: 'file', message: 'has a type that is not accepted ("image/gif")' }]);
    const exe = await upload('tool.exe', 'application/x-msdownload', EXE);
    expectErrorBody(exe, 415);
    expect(exe.body.errors).toEqual([{ field: 'file', message: 'has a type that is not accepted ("application/x-msdownload")' }]);
    expect(await files()).toBe(before);
  });

  it('answers a 26 MiB upload declared by Content-Length with 413 in the house body before reading it, which the client reads while still sending, then closes the connection', async () => {
    const before = await files();
    const { boundary, head, tail } = multipart('big.pdf', 'application/pdf', Buffer.alloc(0));
    const fileBytes = 26 * MiB;
    const length = head.length + fileBytes + tail.length;
    const outcome = await new Promise<{ status: number; headers: Record<string, unknown>; text: string; errors: string[]; sentWhenAnswered: number }>((resolve) => {
      const errors: string[] = [];
      let sent = 0;
      let sentWhenAnswered = -1;
      let answer: { status: number; headers: Record<string, unknown>; text: string } | undefined;
      let closed = false;
      const finish = () => answer && closed && resolve({ ...answer, errors, sentWhenAnswered });
      const req = request(
        `${h.svc.url}/document/v1/files`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${h.tokens.admin}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length), 'x-request-id': 'big-upload-1' },
        },
        (res) => {
          sentWhenAnswered = sent;
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('error', (e: Error) => errors.push(`response: ${e.message}`));
          res.on('end', () => {
            answer = { status: res.statusCode ?? 0, headers: res.headers, text };
            finish();
          });
        },
      );
      req.on('error', (e: Error) => errors.push(`request: ${e.message}`));
      req.on('close', () => {
        closed = true;
        finish();
      });
      // The client sends the whole body, as a client that does not look at the answer before it is done.
      const chunk = Buffer.alloc(256 * 1024, 0x25);
      const write = () => {
        if (sent === 0) {
          req.write(head);
          sent += head.length;
        }
        while (sent < length - tail.length) {
          const n = Math.min(chunk.length, length - tail.length - sent);
          sent += n;
          if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', write);
        }
        req.end(tail);
        sent += tail.length;
      };
      write();
    });
    expect(outcome.errors).toEqual([]);
    expect(outcome.status).toBe(413);
    expect(outcome.headers.connection).toBe('close');
    expect(outcome.headers['x-request-id']).toBe('big-upload-1');
    // Answered from the Content-Length: before the client had sent the body.
    expect(outcome.sentWhenAnswered).toBeLessThan(length);
    expect(JSON.parse(outcome.text)).toEqual({
      statusCode: 413,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      message: `A file may hold at most 25 MiB: this request declares ${length} bytes (at most ${25 * MiB + 64 * 1024} with the multipart framing)`,
      error: 'Payload Too Large',
      path: '/document/v1/files',
      requestId: 'big-upload-1',
    });
    expect(await files()).toBe(before);
    // The service goes on answering.
    expect((await upload('after.pdf', 'application/pdf', PDF)).status).toBe(200);
  });
});
