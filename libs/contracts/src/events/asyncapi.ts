/**
 * The AsyncAPI 3 document of every subject in the event registry, generated from the payload
 * classes (class-validator-jsonschema reads the same decorators that validate). The gateway serves
 * it at /docs/asyncapi.json; docs/asyncapi.json holds the committed copy (a spec keeps them equal).
 */
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { HEADERS } from '../messaging/subjects';
import { EVENT_REGISTRY, EventSubject } from './registry';

type Json = Record<string, unknown>;
type Ctor = new () => object;

const REF_PREFIX = '#/components/schemas/';

/** The classes a payload class uses (itself and every nested class), in a stable order. */
function classClosure(root: Ctor, seen = new Map<string, Ctor>()): Map<string, Ctor> {
  if (seen.has(root.name)) {
    if (seen.get(root.name) !== root) throw new Error(`two event classes are named ${root.name}; schema names must be unique`);
    return seen;
  }
  seen.set(root.name, root);
  const properties = new Set(getMetadataStorage().getTargetValidationMetadatas(root, '', true, false).map((m) => m.propertyName));
  for (const property of [...properties].sort()) {
    const nested = defaultMetadataStorage.findTypeMetadata(root, property)?.typeFunction();
    if (typeof nested === 'function' && nested !== Object && nested !== String) classClosure(nested as Ctor, seen);
  }
  return seen;
}

/** Keys sorted at every level, so the document is the same text for the same registry. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Json)
        .sort()
        .map((k) => [k, sorted((value as Json)[k])]),
    );
  }
  return value;
}

/** `evt.settings.position.created` -> `evt_settings_position_created` (AsyncAPI ids allow letters, digits, _ and -). */
export function asyncApiId(subject: string): string {
  return subject.replace(/\./g, '_');
}

/** The area that publishes a subject: `evt.<area>...`, `job.<area>...`; `auth.caller.changed` is auth's. */
export function producerOf(subject: string): string {
  const parts = subject.split('.');
  return parts[0] === 'evt' || parts[0] === 'job' ? parts[1] : parts[0];
}

export function asyncApiDocument(): Json {
  const schemas = new Map<string, Ctor>();
  for (const entry of Object.values(EVENT_REGISTRY)) classClosure(entry.payload as Ctor, schemas);

  const channels: Json = {};
  const operations: Json = {};
  const messages: Json = {};
  for (const subject of Object.keys(EVENT_REGISTRY).sort() as EventSubject[]) {
    const entry = EVENT_REGISTRY[subject];
    const id = asyncApiId(subject);
    const stream = subject.startsWith('job.') ? 'JOBS' : 'EVENTS';
    messages[id] = {
      name: subject,
      title: subject,
      summary: entry.summary,
      contentType: 'application/json',
      headers: { $ref: '#/components/schemas/MessageHeaders' },
      payload: { $ref: `${REF_PREFIX}${entry.payload.name}` },
    };
    channels[id] = {
      address: subject,
      title: subject,
      description: `${entry.summary} JetStream stream ${stream}; on the wire the subject is prefixed with the namespace (NATS_NAMESPACE) when one is set.`,
      messages: { [id]: { $ref: `#/components/messages/${id}` } },
    };
    operations[`send_${id}`] = {
      action: 'send',
      title: `${producerOf(subject)} publishes ${subject}`,
      summary: `Published by the ${producerOf(subject)} area through its transactional outbox (once the change commits).`,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/${id}` }],
    };
  }

  const components: Json = {
    messages,
    schemas: {
      MessageHeaders: {
        type: 'object',
        properties: {
          [HEADERS.msgId]: { type: 'string', format: 'uuid', description: 'The outbox row id; JetStream drops a second message with the same id (deduplication window)' },
          [HEADERS.requestId]: { type: 'string', description: 'The x-request-id of the HTTP request (or message) that caused the event' },
          [HEADERS.changeId]: {
            type: 'string',
            format: 'uuid',
            description: 'The change (the transaction that published the event, a uuid v7) it belongs to; a consuming area records it with the message, so it can tell when a consistency token (x-consistency-token) is applied',
          },
          traceparent: {
            type: 'string',
            description: "W3C trace context: the outbox relay's publish span, in the trace of the change that published the event (only when tracing is on)",
          },
          tracestate: { type: 'string', description: 'W3C trace state, when the trace carries one' },
        },
      },
      ...Object.fromEntries(
        [...schemas.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, ctor]) => [
            name,
            targetConstructorToSchema(ctor, { refPointerPrefix: REF_PREFIX, classTransformerMetadataStorage: defaultMetadataStorage }),
          ]),
      ),
    },
  };

  return sorted({
    asyncapi: '3.0.0',
    info: {
      title: 'Decision and Delegation Management: events',
      version: '1.0.0',
      description:
        'Every subject the services publish on NATS JetStream, with its payload. Events (evt.<area>.<entity>.<verb>) and the caller ' +
        'invalidation (auth.caller.changed) are on the EVENTS stream; jobs (job.<area>.<name>) on the JOBS stream. Every event of a ' +
        "tenant's record carries tenantId. Payloads may gain fields; consumers ignore the fields they do not know.",
    },
    defaultContentType: 'application/json',
    servers: {
      nats: { host: 'localhost:4222', protocol: 'nats', description: 'NATS with JetStream (NATS_URL of each service)' },
    },
    channels,
    operations,
    components,
  }) as Json;
}
