import { dirname } from 'node:path';
import { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { AREAS, AreaName, asyncApiDocument, docsPath, errorBody } from '@ddm/contracts';
import { Logger } from 'pino';
import { AreaDocument, MERGED_TITLE, OpenApiDocument, mergeOpenApi } from './openapi-merge';

const FETCH_TIMEOUT_MS = 3_000;
/** A document missing an area is rebuilt sooner, so a service that just started shows up quickly. */
const INCOMPLETE_CACHE_MS = 2_000;

/** Where the gateway serves an area's own document: its own path, except notifications (whose own is /docs-json). */
export function areaDocsJsonPath(area: AreaName): string {
  return area === 'notifications' ? '/docs/notifications-json' : `${docsPath(area)}-json`;
}

/** Fetches each service's document and merges them; the result is reused for `cacheMs`. */
export class MergedDocs {
  private cached?: { doc: OpenApiDocument; until: number };
  private building?: Promise<OpenApiDocument>;

  constructor(
    private readonly upstreams: Record<AreaName, string>,
    private readonly cacheMs: number,
    private readonly log: Logger,
  ) {}

  async get(requestId: string): Promise<OpenApiDocument> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.doc;
    // One build at a time: concurrent callers share it.
    this.building ??= this.build(requestId).finally(() => (this.building = undefined));
    return this.building;
  }

  private async build(requestId: string): Promise<OpenApiDocument> {
    const results = await Promise.all(AREAS.map((area) => this.fetchArea(area, requestId)));
    const parts = results.filter((r): r is AreaDocument => r !== undefined);
    const unavailable = AREAS.filter((_, i) => results[i] === undefined);
    const doc = mergeOpenApi(parts, unavailable);
    this.cached = { doc, until: Date.now() + (unavailable.length ? Math.min(this.cacheMs, INCOMPLETE_CACHE_MS) : this.cacheMs) };
    return doc;
  }

  private async fetchArea(area: AreaName, requestId: string): Promise<AreaDocument | undefined> {
    const url = `${this.upstreams[area]}${docsPath(area)}-json`;
    try {
      const res = await fetch(url, { headers: { accept: 'application/json', 'x-request-id': requestId }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const doc = (await res.json()) as OpenApiDocument;
      if (!doc || typeof doc !== 'object' || typeof doc.paths !== 'object') throw new Error('not an OpenAPI document');
      return { area, doc };
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      this.log.warn({ area, url, cause, requestId }, 'OpenAPI document of an area is unavailable; left out of the merged document');
      return undefined;
    }
  }
}

function indexHtml(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>${MERGED_TITLE}</title>
  <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css">
  <link rel="stylesheet" type="text/css" href="/docs/index.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="/docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
  <script src="/docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
  <script src="/docs/swagger-initializer.js" charset="UTF-8"></script>
</body>
</html>
`;
}

function initializerJs(): string {
  const urls = [{ url: '/docs-json', name: 'All areas (merged)' }, ...AREAS.map((area) => ({ url: areaDocsJsonPath(area), name: area }))];
  return `window.onload = function () {
  window.ui = SwaggerUIBundle({
    urls: ${JSON.stringify(urls)},
    'urls.primaryName': ${JSON.stringify(urls[0].name)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
    // No online validator badge: off localhost it is an image from validator.swagger.io, which the
    // CSP (img-src 'self') refuses and which would give a third party the document's address.
    validatorUrl: null,
  });
};
`;
}

/**
 * `GET /docs-json` (the merged document), `GET /docs/asyncapi.json` (the events) and `GET /docs` (Swagger UI from swagger-ui-dist, with a
 * dropdown of the merged document and each area's own). The notifications document is proxied
 * separately (see gateway.ts) because its own path, /docs-json, is the merged one here.
 */
export function registerDocs(app: FastifyInstance, docs: MergedDocs): void {
  app.get('/docs-json', async (request, reply) => {
    try {
      return reply.header('cache-control', 'no-cache').send(await docs.get(request.id));
    } catch (err) {
      request.log.error({ err }, 'merging the OpenAPI documents failed');
      return reply.code(500).send(errorBody(500, 'Internal server error', '/docs-json', request.id));
    }
  });

  // The events' contract: generated from the event registry in libs/contracts (the same in every build).
  const asyncapi = JSON.stringify(asyncApiDocument());
  app.get('/docs/asyncapi.json', (_request, reply) => void reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(asyncapi));

  const html = indexHtml();
  const js = initializerJs();
  for (const url of ['/docs', '/docs/', '/docs/index.html']) {
    app.get(url, (_request, reply) => void reply.type('text/html; charset=utf-8').send(html));
  }
  app.get('/docs/swagger-initializer.js', (_request, reply) => void reply.type('application/javascript; charset=utf-8').send(js));

  void app.register(fastifyStatic, {
    root: dirname(require.resolve('swagger-ui-dist/package.json')),
    prefix: '/docs/',
    decorateReply: false,
    index: false,
    wildcard: true,
    maxAge: '1h',
  });
}
