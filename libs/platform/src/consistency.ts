/**
 * Consistency tokens ("freshness you can ask for", Zanzibar's zookie): every write answers the
 * header `x-consistency-token` naming the changes it committed; a read that sends it back (the
 * header, or a body's `consistency.atLeastAsFresh`) is answered only once this service has applied
 * them (Freshness, freshness.ts). The one place a token is made and read.
 *
 * A change is one committed transaction that published events: its id (a uuid v7, made at its first
 * publish, carried by each of its events as `Ddm-Change-Id`) and how many events it published per
 * subject. The token is `ct1.` + base64url(JSON of `[{ changeId, counts: { subject: n } }]`), at most
 * MAX_TOKEN_CHANGES changes and MAX_TOKEN_LENGTH characters. It is not signed: a made-up token can
 * at worst make its own request wait for the bound and answer 503.
 */
import { ExecutionContext, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiHeader, ApiProperty, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { badRequest } from '@ddm/contracts';
import type { CommittedChange } from './request-context';

export type { CommittedChange } from './request-context';

/** The header a write answers and a read may send. */
export const CONSISTENCY_TOKEN_HEADER = 'x-consistency-token';
/** The version prefix of every token. */
export const CONSISTENCY_TOKEN_PREFIX = 'ct1.';
/** The most changes one token names (the transactions of one request). */
export const MAX_TOKEN_CHANGES = 16;
/** The longest token, in characters. */
export const MAX_TOKEN_LENGTH = 4096;
/** The most subjects one change counts, and the most events per subject. */
const MAX_SUBJECTS = 64;
const MAX_COUNT = 1_000_000;

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SUBJECT = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){1,9}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The token of the changes a request committed, or undefined when there are none or they do not fit
 * (more than MAX_TOKEN_CHANGES, or longer than MAX_TOKEN_LENGTH): a token naming only some of them
 * would let a read look fresh without the rest, so then there is none.
 */
export function encodeConsistencyToken(changes: readonly CommittedChange[]): string | undefined {
  if (!changes.length || changes.length > MAX_TOKEN_CHANGES) return undefined;
  const json = JSON.stringify(changes.map((c) => ({ changeId: c.changeId, counts: c.counts })));
  const token = CONSISTENCY_TOKEN_PREFIX + Buffer.from(json).toString('base64url');
  return token.length <= MAX_TOKEN_LENGTH ? token : undefined;
}

/** The changes a token names, or what is wrong with it. */
export function readConsistencyToken(text: string): { changes: CommittedChange[] } | { problem: string } {
  if (text.length > MAX_TOKEN_LENGTH) return { problem: `is longer than ${MAX_TOKEN_LENGTH} characters` };
  if (!text.startsWith(CONSISTENCY_TOKEN_PREFIX) || !BASE64URL.test(text.slice(CONSISTENCY_TOKEN_PREFIX.length))) {
    return { problem: `must be a consistency token (${CONSISTENCY_TOKEN_PREFIX}..., as a write answers it in ${CONSISTENCY_TOKEN_HEADER})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text.slice(CONSISTENCY_TOKEN_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return { problem: 'is not a consistency token this API made (unreadable)' };
  }
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_TOKEN_CHANGES) {
    return { problem: `is not a consistency token this API made (1 to ${MAX_TOKEN_CHANGES} changes)` };
  }
  const changes: CommittedChange[] = [];
  for (const item of value) {
    const change = item as { changeId?: unknown; counts?: unknown };
    if (!change || typeof change !== 'object' || Object.keys(change).length !== 2 || typeof change.changeId !== 'string' || !UUID_V7.test(change.changeId)) {
      return { problem: 'is not a consistency token this API made (a change without its id)' };
    }
    const counts = change.counts;
    if (!counts || typeof counts !== 'object' || Array.isArray(counts)) return { problem: 'is not a consistency token this API made (a change without its counts)' };
    const entries = Object.entries(counts as Record<string, unknown>);
    if (!entries.length || entries.length > MAX_SUBJECTS) return { problem: 'is not a consistency token this API made (a change counting no subject, or too many)' };
    const read: Record<string, number> = {};
    for (const [subject, n] of entries) {
      if (!SUBJECT.test(subject) || subject.length > 200 || !Number.isInteger(n) || (n as number) < 1 || (n as number) > MAX_COUNT) {
        return { problem: 'is not a consistency token this API made (a bad subject or count)' };
      }
      read[subject] = n as number;
    }
    changes.push({ changeId: change.changeId, counts: read });
  }
  return { changes };
}

/** The changes a token names; a malformed one is a 400 naming `field`. */
export function parseConsistencyToken(text: unknown, field: string): CommittedChange[] {
  const read = typeof text === 'string' ? readConsistencyToken(text) : { problem: 'must be one consistency token (a string)' };
  if ('problem' in read) throw badRequest(`${field} ${read.problem}`, [{ field, message: read.problem }]);
  return read.changes;
}

/** When a change was made (the millisecond time of its uuid v7). */
export function changeTime(changeId: string): number {
  return parseInt(changeId.slice(0, 8) + changeId.slice(9, 13), 16);
}

/** The body field of a read that takes a token: `consistency: { atLeastAsFresh }`. */
export class ConsistencyDto {
  @ApiProperty({
    maxLength: MAX_TOKEN_LENGTH,
    example: 'ct1.W3siY2hhbmdlSWQiOiIwMTk...',
    description: `A consistency token a write answered (its \`${CONSISTENCY_TOKEN_HEADER}\` header): answered only once the change it names is applied here`,
  })
  @ValidateBy({
    name: 'isConsistencyToken',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && 'changes' in readConsistencyToken(value),
      defaultMessage: () => `$property must be a consistency token a write answered (${CONSISTENCY_TOKEN_HEADER})`,
    },
  })
  atLeastAsFresh: string;
}

/** The changes named by a body's `consistency` (validated already by ConsistencyDto). */
export function changesOf(consistency: ConsistencyDto | null | undefined, field = 'consistency.atLeastAsFresh'): CommittedChange[] {
  return consistency ? parseConsistencyToken(consistency.atLeastAsFresh, field) : [];
}

/**
 * The handler parameter of a read that takes the header: the changes it names (none without it);
 * a malformed token (or the header sent twice) is a 400 naming the header.
 */
export const ConsistencyHeader = createParamDecorator((_data: unknown, context: ExecutionContext): CommittedChange[] => {
  const value = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>().headers[CONSISTENCY_TOKEN_HEADER];
  return value === undefined ? [] : parseConsistencyToken(value, CONSISTENCY_TOKEN_HEADER);
});

/** What the OpenAPI document says of a read that waits for a token: the request header, and its 503. */
export const ApiConsistentRead = () =>
  applyDecorators(
    ApiHeader({
      name: CONSISTENCY_TOKEN_HEADER,
      required: false,
      description:
        `A consistency token a write answered (its \`${CONSISTENCY_TOKEN_HEADER}\` response header): the answer waits until the change it names is applied here ` +
        '(up to CONSISTENCY_WAIT_MS, 5 s by default; then a 503 with Retry-After), so it reflects that write. Malformed: 400.',
      schema: { type: 'string', maxLength: MAX_TOKEN_LENGTH },
    }),
    ApiServiceUnavailableResponse({
      description:
        'The change a consistency token names is not applied here yet (waited CONSISTENCY_WAIT_MS), or (only until the service first reaches the message stream) ' +
        'it cannot tell yet how fresh its answers are: retry after Retry-After seconds',
      headers: { 'Retry-After': { description: 'Seconds to wait before asking again', schema: { type: 'integer' } } },
    }),
  );
