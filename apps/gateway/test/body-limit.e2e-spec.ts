import { AddressInfo } from 'node:net';
import { createServer, Server } from 'node:http';
import { Readable } from 'node:stream';
import { FastifyInstance } from 'fastify';
import { UPLOAD_BODY_LIMIT, UPLOAD_ROUTE } from '@ddm/contracts';
import { buildGateway } from '../src/gateway';

const MiB = 1024 * 1024;

/**
 * The gateway's body limits: 1 MiB on every route but the document upload, which takes a 25 MiB
 * file and its multipart framing (UPLOAD_BODY_LIMIT), streamed; past it a 413 from the gateway,
 * declared or chunked. An upstream stand-in counts what reaches it.
 */
describe('gateway: body limits, with the upload route its own', () => {
  let upstream: Server;
  let gateway: FastifyInstance;
  let base: string;
  const received: { path: string; bytes: number }[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => {
        received.push({ path: req.url ?? '', bytes });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = buildGateway({ config: { upstreams: { document: url, auth: url }, logLevel: 'error' }, env: {} });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  const send = (path: string, bytes: number, chunked = false) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', ...(chunked ? {} : { 'content-length': String(bytes) }) },
      body: chunked ? (Readable.toWeb(Readable.from((function* () {
        for (let sent = 0; sent < bytes; sent += MiB) yield Buffer.alloc(Math.min(MiB, bytes - sent));
      })())) as ReadableStream) : Buffer.alloc(bytes),
      duplex: 'half',
    } as RequestInit);

  it('streams an upload past 1 MiB to the document service, declared or chunked', async () => {
    const declared = await send(UPLOAD_ROUTE.path, 3 * MiB);
    expect(declared.status).toBe(200);
    expect(await declared.json()).toEqual({ bytes: 3 * MiB });
    const chunked = await send(UPLOAD_ROUTE.path, 20 * MiB, true);
    expect(chunked.status).toBe(200);
    expect(await chunked.json()).toEqual({ bytes: 20 * MiB });
  });

  it('answers 413 itself past the upload limit, and past 1 MiB on every other route', async () => {
    const before = received.length;
    const tooBig = await send(UPLOAD_ROUTE.path, UPLOAD_BODY_LIMIT + 1);
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { message: string }).message).toContain(String(UPLOAD_BODY_LIMIT));
    const elsewhere = await send('/document/v1/documents', 2 * MiB);
    expect(elsewhere.status).toBe(413);
    expect(((await elsewhere.json()) as { message: string }).message).toBe('Request body is larger than the 1 MiB limit');
    expect(received.length).toBe(before); // neither reached the service
    const chunkedElsewhere = await send('/document/v1/documents', 3 * MiB, true);
    expect(chunkedElsewhere.status).toBe(413);
  });
});
