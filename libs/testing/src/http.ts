export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Raw body sent as is (with `contentType`). */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A small HTTP client over fetch for e2e specs: real HTTP against a listening server. */
export function httpClient(baseUrl: string) {
  async function call(method: string, path: string, o: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | Buffer | undefined;
    if (o.raw !== undefined) {
      body = o.raw;
      headers['content-type'] = o.contentType ?? 'application/json';
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = o.contentType ?? 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }
  return {
    get: (path: string, o?: RequestOptions) => call('GET', path, o),
    post: (path: string, o?: RequestOptions) => call('POST', path, o),
    patch: (path: string, o?: RequestOptions) => call('PATCH', path, o),
    put: (path: string, o?: RequestOptions) => call('PUT', path, o),
    delete: (path: string, o?: RequestOptions) => call('DELETE', path, o),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

/** Asserts the one error body of ARCHITECTURE §3 (jest `expect` is global in specs). */
export function expectErrorBody(res: HttpResult, status: number, path?: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual(
    expect.objectContaining({
      statusCode: status,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      message: expect.any(String),
      error: expect.any(String),
      path: path ?? expect.any(String),
      requestId: expect.any(String),
    }),
  );
  expect(typeof res.body.message).toBe('string');
  expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
}
