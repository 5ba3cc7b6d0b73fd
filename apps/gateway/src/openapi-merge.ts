import { isDeepStrictEqual } from 'node:util';
import { AreaName, ROUTES } from '@ddm/contracts';

/** The parts of an OpenAPI 3 document the merge touches; the rest is carried as it is. */
export interface OpenApiDocument {
  openapi?: string;
  info?: Record<string, unknown>;
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  security?: Record<string, string[]>[];
  [extension: string]: unknown;
}

export interface AreaDocument {
  area: AreaName;
  doc: OpenApiDocument;
}

export const MERGED_TITLE = 'Decision and Delegation Management API';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const ACCESS_TOKEN = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Copy of `value` with every `$ref: '#/components/<section>/<name>'` renamed per `renames` (key `section/name`). */
function rewriteRefs<T>(value: T, renames: Map<string, string>): T {
  if (renames.size === 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, renames)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/')) {
      const [section, name] = v.slice('#/components/'.length).split('/', 2);
      const renamed = renames.get(`${section}/${name}`);
      out[k] = renamed ? `#/components/${section}/${renamed}` : v;
    } else {
      out[k] = rewriteRefs(v, renames);
    }
  }
  return out as T;
}

/**
 * One document from the areas' documents. Paths do not collide (each area has its own prefix).
 * Components are merged by name; when a later area has a different component under a name already
 * taken, the later one becomes `<Area><Name>` and its `$ref`s follow. Identical ones are shared.
 */
export function mergeOpenApi(parts: AreaDocument[], unavailable: AreaName[]): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, Record<string, unknown>> = { schemas: {} };
  const operationIds = new Set<string>();
  const tags: { name: string; description?: string }[] = [];
  const tagGroups: { name: string; tags: string[] }[] = [];
  const seenTags = new Set<string>();

  for (const { area, doc } of parts) {
    const sections = Object.entries(doc.components ?? {}).filter(([section]) => section !== 'securitySchemes');

    // Rename until stable: a component equal in text can still differ once a component it refers to was renamed.
    const renames = new Map<string, string>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const [section, entries] of sections) {
        for (const [name, value] of Object.entries(entries ?? {})) {
          const key = `${section}/${name}`;
          if (renames.has(key)) continue;
          const existing = components[section]?.[name];
          if (existing === undefined || isDeepStrictEqual(existing, rewriteRefs(value, renames))) continue;
          let candidate = `${pascal(area)}${name}`;
          for (let n = 2; components[section]?.[candidate] !== undefined || entries[candidate] !== undefined || [...renames.values()].includes(candidate); n++) {
            candidate = `${pascal(area)}${name}${n}`;
          }
          renames.set(key, candidate);
          changed = true;
        }
      }
    }
    for (const [section, entries] of sections) {
      const target = (components[section] ??= {});
      for (const [name, value] of Object.entries(entries ?? {})) {
        const finalName = renames.get(`${section}/${name}`) ?? name;
        if (target[finalName] === undefined) target[finalName] = rewriteRefs(value, renames);
      }
    }

    // Swagger UI shows every tag of `tags` as a heading, used or not, and ignores `x-tagGroups`: so
    // each operation's tag names its area ("matrix: Matrices") and `tags` lists only those in use.
    const areaTag = (t: string) => `${area}: ${t}`;
    const used = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const merged = (paths[path] ??= {});
      for (const [key, value] of Object.entries(rewriteRefs(item, renames))) {
        if (merged[key] !== undefined) continue;
        if (METHODS.has(key) && value && typeof value === 'object') {
          const op = { ...(value as { operationId?: string; tags?: string[] }) };
          if (op.operationId) {
            if (operationIds.has(op.operationId)) op.operationId = `${area}_${op.operationId}`;
            operationIds.add(op.operationId);
          }
          op.tags = op.tags?.length ? op.tags.map(areaTag) : [area];
          op.tags.forEach((t) => used.add(t));
          merged[key] = op;
          continue;
        }
        merged[key] = value;
      }
    }

    const described = new Map((doc.tags ?? []).map((t) => [areaTag(t.name), t.description]));
    for (const name of used) {
      const description = described.get(name) ?? (name === area ? `The ${area} service: paths under ${ROUTES.find((r) => r.area === area)?.path}` : undefined);
      if (!seenTags.has(name)) tags.push(description === undefined ? { name } : { name, description });
      seenTags.add(name);
    }
    tagGroups.push({ name: area, tags: [...used] });
  }

  components.securitySchemes = { accessToken: ACCESS_TOKEN };
  return {
    openapi: parts[0]?.doc.openapi ?? '3.0.0',
    info: {
      title: MERGED_TITLE,
      version: '1.0',
      description:
        'Every area of the API behind one address. Each area also serves its own document at /{prefix}/docs-json.' +
        (unavailable.length ? ` Unavailable when this document was built: ${unavailable.join(', ')}.` : ''),
    },
    tags,
    paths,
    components,
    security: [{ accessToken: [] }],
    'x-tagGroups': tagGroups,
    'x-unavailable-areas': unavailable,
  };
}
