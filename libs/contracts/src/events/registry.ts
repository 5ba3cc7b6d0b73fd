/**
 * The event registry: every subject the services publish, one entry each, with its payload class.
 * `Tx.publish(subject, payload)` is typed by it (a subject that is not here, or a payload of the
 * wrong shape, does not compile), the outbox validates every payload by it when it is written,
 * consumers validate by it again when they take a message, and the AsyncAPI document is
 * generated from it. A new area adds its `<area>.events.ts` and spreads its entries in here.
 */
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { flattenValidationErrors } from '../http/validation';
import { ACTIONS_EVENTS } from './actions.events';
import { ATTESTATION_EVENTS } from './attestation.events';
import { AUTH_EVENTS } from './auth.events';
import { DECISION_EVENTS } from './decision.events';
import { DOCUMENT_EVENTS } from './document.events';
import { MATRIX_EVENTS } from './matrix.events';
import { EventEntry } from './entry';
import { NOTIFICATIONS_EVENTS } from './notifications.events';
import { readLeniently } from './fields';
import { SETTINGS_EVENTS } from './settings.events';

export const EVENT_REGISTRY = {
  ...AUTH_EVENTS,
  ...SETTINGS_EVENTS,
  ...DECISION_EVENTS,
  ...DOCUMENT_EVENTS,
  ...ACTIONS_EVENTS,
  ...NOTIFICATIONS_EVENTS,
  ...MATRIX_EVENTS,
  ...ATTESTATION_EVENTS,
} as const satisfies Record<string, EventEntry>;

/** A subject of the registry (`evt.<area>.<entity>.<verb>`, `job.<area>.<name>`, `auth.caller.changed`). */
export type EventSubject = keyof typeof EVENT_REGISTRY;

/** The payload of a subject, as its class declares it. */
export type EventPayload<S extends EventSubject> = InstanceType<(typeof EVENT_REGISTRY)[S]['payload']>;

/** A message of one of the subjects `S`: the subject and its payload, discriminated by the subject. */
export type EventMessageOf<S extends EventSubject> = { [K in S]: { subject: K; payload: EventPayload<K> } }[S];

/** Every registered subject. */
export const EVENT_SUBJECT_LIST = Object.keys(EVENT_REGISTRY) as EventSubject[];

export function isRegisteredSubject(subject: string): subject is EventSubject {
  return Object.prototype.hasOwnProperty.call(EVENT_REGISTRY, subject);
}

/** Largest event payload we publish (NATS' default max_payload is 1 MiB). */
export const MAX_EVENT_BYTES = 512 * 1024;

/** Logical subjects the streams carry: evt.<area>.<entity>.<verb>, job.<area>.<name>, auth.caller.changed. */
const SUBJECT_PATTERN = /^(evt\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*|job\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*|auth\.caller\.changed)$/;

/** A subject of the naming scheme that the registry holds. */
export function isPublishableSubject(subject: string): boolean {
  return SUBJECT_PATTERN.test(subject) && isRegisteredSubject(subject);
}

/**
 * The problems of a payload for its subject by the registry ([] when it is valid), one line per
 * field (`position.id must be a UUID`). Fields the class does not know are allowed: a producer
 * may add fields without breaking its consumers.
 */
export function validateEvent(subject: string, payload: unknown): string[] {
  if (!SUBJECT_PATTERN.test(subject)) return [`subject "${subject}" is not evt.<area>.<entity>.<verb>, job.<area>.<name> or auth.caller.changed`];
  if (!isRegisteredSubject(subject)) return [`subject "${subject}" is not in the event registry (libs/contracts/src/events)`];
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return ['payload must be an object'];
  const instance = plainToInstance(EVENT_REGISTRY[subject].payload as new () => object, payload);
  const errors = validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false, validationError: { target: false, value: false } });
  return flattenValidationErrors(errors).map((e) => `${e.field} ${e.message}`);
}

/**
 * A consumed message's payload as the consumer reads it: each field's tolerant reading applied
 * (see `readLeniently`), then the same validation as `validateEvent`. A payload it cannot read is
 * poison (its problems are answered).
 */
export function readEvent(subject: string, payload: unknown): { payload: unknown; problems: string[] } {
  const read = isRegisteredSubject(subject) ? readLeniently(EVENT_REGISTRY[subject].payload, payload) : payload;
  return { payload: read, problems: validateEvent(subject, read) };
}

/** The subjects by name, for the areas that publish or consume them. */
export const EVENT_SUBJECTS = {
  tenantCreated: 'evt.auth.tenant.created',
  userCreated: 'evt.auth.user.created',
  userUpdated: 'evt.auth.user.updated',
  userDeleted: 'evt.auth.user.deleted',
  delegationIssued: 'evt.decision.delegation.issued',
  delegationUpdated: 'evt.decision.delegation.updated',
  delegationRevoked: 'evt.decision.delegation.revoked',
  callerChanged: 'auth.caller.changed',
} as const satisfies Record<string, EventSubject>;
