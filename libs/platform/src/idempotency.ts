import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable, Module, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import type { QueryRunner } from 'typeorm';
import { AppError, ErrorCode, SettledAnswer, badRequest, conflict } from '@ddm/contracts';
import { Db } from './db';
import { LOGGER } from './platform.module';
import { ScheduledSweep } from './sweep';

/**
 * Safe retries: an `Idempotency-Key` header on a POST or a bulk PATCH (a PATCH whose path's last
 * segment starts with `bulk-`) makes the first answer (status, body, content type, location) the
 * answer of every retry with that key, per tenant and caller, for IDEMPOTENCY_TTL_MS:
 * - the first request claims the key (a row `in_progress`) once the guard knows the caller, runs,
 *   and its answer is stored as the response leaves (a Fastify onSend hook: it sees error bodies
 *   too); a 5xx or a 429 is not stored: the claim is released and a retry runs again;
 * - a retry with the same request (method, URL and canonical JSON body) gets the stored answer
 *   with `Idempotent-Replayed: true`, without the handler running;
 * - the same key with another request is a 422; while the first is running, a 409 with Retry-After;
 * - a claim no longer kept alive (its process died: a live one refreshes it every HEARTBEAT_MS)
 *   may be taken over after IDEMPOTENCY_STALE_CLAIM_MS.
 * Without the header nothing changes, and public routes (no caller to keep a key for) ignore it.
 * One gap stays: a process dying after the handler committed and before the answer is stored
 * leaves a claim that a retry takes over a minute later, running the operation again.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long an answer is kept for retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim not refreshed for this long belongs to a process that died, and may be taken over. */
export const IDEMPOTENCY_STALE_CLAIM_MS = 60_000;
/** How often a running request refreshes its claim (well inside the stale bound). */
const HEARTBEAT_MS = 15_000;
/** Seconds a caller is told to wait while the first request with its key runs. */
const IN_PROGRESS_RETRY_AFTER = '1';
/** The response headers stored and replayed with the body (the others are the new request's own); the consistency token names the first request's changes. */
const REPLAYED_HEADERS = ['content-type', 'location', 'x-consistency-token'] as const;
/** 1 to 255 visible ASCII characters (no space, no control character). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const pathOf = (url: string) => url.split('?')[0];

/** Whether an operation takes an Idempotency-Key: every POST, and a PATCH whose last path segment starts with `bulk-`. */
export function isIdempotentOperation(method: string, url: string): boolean {
  if (method.toUpperCase() === 'POST') return true;
  if (method.toUpperCase() !== 'PATCH') return false;
  const path = pathOf(url).replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1).startsWith('bulk-');
}

/** The OpenAPI extension marking an operation whose answer is not kept (AnswerNotKept): its document offers no Idempotency-Key. */
export const ANSWER_NOT_KEPT = 'x-answer-not-kept';

/**
 * A POST whose answer must not be kept for retries: it holds a secret that may be stored only as a
 * hash (a stream ticket). An Idempotency-Key sent to it is ignored; each request runs.
 */
export const AnswerNotKept = () => applyDecorators(RouteConfig({ idempotency: false }), ApiExtension(ANSWER_NOT_KEPT, true));


/** The key of the header, or undefined without one; a malformed key (or the header sent twice) is a 400. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
    throw badRequest('Idempotency-Key must be one value of 1 to 255 visible ASCII characters', [
      { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  return header;
}

/**
 * JSON with every object's keys sorted, so two bodies that differ only in key order (or in
 * whitespace) are the same request. Recursion is bounded: the request input checks refuse bodies
 * nested deeper than MAX_BODY_DEPTH before this runs.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** What a request is, for telling a retry from another request under the same key. */
export interface RequestShape {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/**
 * SHA-256 (hex) of the method, the URL (path and query) and the canonical JSON body. A multipart
 * body (the file upload) is streamed to storage by its handler and never held whole, so it cannot
 * be hashed before the handler runs: its fingerprint covers the media type and the declared
 * Content-Length instead (`unknown` for a chunked body). A retry of the same upload matches; another
 * file of exactly the same size (or another chunked upload) under the same key gets the first
 * upload's answer rather than a 422.
 */
export function requestFingerprint(r: RequestShape): string {
  const type = String(r.headers['content-type'] ?? '');
  const content = /^multipart\//i.test(type) ? `multipart;length=${String(r.headers['content-length'] ?? 'unknown')}` : canonicalJson(r.body);
  return createHash('sha256').update(`${r.method.toUpperCase()}\n${r.url}\n${content}`).digest('hex');
}

/** A stored answer. */
export interface StoredAnswer {
  status: number;
  body: Buffer;
  headers: Record<string, string>;
}

/** Whose key: the tenant the guard verified, the caller (users.id), the key. */
export interface IdempotencyScope {
  tenantId: string;
  callerId: string;
  key: string;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claimId: string }
  | { kind: 'done'; answer: StoredAnswer }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

/** An answer worth keeping: a 5xx (something failed) or a 429 (try later) is not the operation's answer. */
export function isStoredStatus(status: number): boolean {
  return status < 500 && status !== 429;
}

/** The `idempotency_keys` table of a service schema; call from the service's migration. */
export async function createIdempotencyTable(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`
    CREATE TABLE "${schema}".idempotency_keys (
      tenant_id uuid NOT NULL,
      caller_id uuid NOT NULL,
      key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
      fingerprint text NOT NULL,
      state text NOT NULL CHECK (state IN ('in_progress', 'done')),
      claim_id uuid,
      claimed_at timestamptz NOT NULL DEFAULT now(),
      response_status integer,
      response_body bytea,
      response_headers jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, caller_id, key)
    )`);
  await q.query(`CREATE INDEX idempotency_keys_expiry ON "${schema}".idempotency_keys (expires_at)`);
}

export async function dropIdempotencyTable(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`DROP TABLE IF EXISTS "${schema}".idempotency_keys`);
}

interface KeyRow {
  fingerprint: string;
  state: 'in_progress' | 'done';
  response_status: number | null;
  response_body: Buffer | null;
  response_headers: Record<string, string> | null;
}

/** The keys of one service schema, every statement scoped by tenant (and caller). */
@Injectable()
export class IdempotencyStore {
  private readonly table: string;

  constructor(private readonly db: Db) {
    this.table = `"${db.schema}".idempotency_keys`;
  }

  /**
   * Claims the key for this request, atomically across replicas (one upsert): a new key, an
   * expired one, or a stale claim of the same request is ours; otherwise the row says what it is.
   */
  async claim(scope: IdempotencyScope, fingerprint: string): Promise<ClaimOutcome> {
    const { tenantId, callerId, key } = scope;
    // A row deleted between the upsert and the read (released, swept) makes the key free again: claim anew.
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimId = randomUUID();
      const claimed = await this.db.query(
        `INSERT INTO ${this.table} AS k (tenant_id, caller_id, key, fingerprint, state, claim_id, claimed_at, created_at, expires_at)
         VALUES ($1, $2, $3, $4, 'in_progress', $5, now(), now(), now() + $6 * interval '1 millisecond')
         ON CONFLICT (tenant_id, caller_id, key) DO UPDATE
            SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', claim_id = EXCLUDED.claim_id, claimed_at = now(),
                created_at = now(), expires_at = EXCLUDED.expires_at, response_status = NULL, response_body = NULL, response_headers = NULL
          WHERE k.expires_at <= now()
             OR (k.state = 'in_progress' AND k.fingerprint = EXCLUDED.fingerprint AND k.claimed_at < now() - $7 * interval '1 millisecond')
         RETURNING k.claim_id`,
        [tenantId, callerId, key, fingerprint, claimId, IDEMPOTENCY_TTL_MS, IDEMPOTENCY_STALE_CLAIM_MS],
      );
      if (claimed.length) return { kind: 'claimed', claimId };
      const [row] = await this.db.query<KeyRow>(
        `SELECT fingerprint, state, response_status, response_body, response_headers FROM ${this.table}
          WHERE tenant_id = $1 AND caller_id = $2 AND key = $3 AND expires_at > now()`,
        [tenantId, callerId, key],
      );
      if (!row) continue;
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'in_progress') return { kind: 'in-progress' };
      return { kind: 'done', answer: { status: row.response_status ?? 200, body: row.response_body ?? Buffer.alloc(0), headers: row.response_headers ?? {} } };
    }
    return { kind: 'in-progress' };
  }

  /** Keeps a running request's claim fresh, so nobody takes it over. */
  async refresh(scope: IdempotencyScope, claimId: string): Promise<void> {
    await this.db.query(
      `UPDATE ${this.table} SET claimed_at = now() WHERE tenant_id = $1 AND caller_id = $2 AND key = $3 AND claim_id = $4 AND state = 'in_progress'`,
      [scope.tenantId, scope.callerId, scope.key, claimId],
    );
  }

  /** Stores the answer of the request holding the claim. */
  async complete(scope: IdempotencyScope, claimId: string, answer: StoredAnswer): Promise<void> {
    await this.db.query(
      `UPDATE ${this.table} SET state = 'done', response_status = $5, response_body = $6, response_headers = $7
        WHERE tenant_id = $1 AND caller_id = $2 AND key = $3 AND claim_id = $4 AND state = 'in_progress'`,
      [scope.tenantId, scope.callerId, scope.key, claimId, answer.status, answer.body, JSON.stringify(answer.headers)],
    );
  }

  /** Gives the key back (the request failed with a 5xx or a 429): a retry runs again. */
  async release(scope: IdempotencyScope, claimId: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.table} WHERE tenant_id = $1 AND caller_id = $2 AND key = $3 AND claim_id = $4 AND state = 'in_progress'`, [
      scope.tenantId,
      scope.callerId,
      scope.key,
      claimId,
    ]);
  }

  /**
   * Deletes up to `batch` expired keys of every tenant (a maintenance sweep, the one statement here
   * without a tenant: the explicit cross-tenant path), taken with SKIP LOCKED so replicas sweeping together do not wait on each other.
   */
  async deleteExpired(batch: number): Promise<number> {
    const rows = await this.db.acrossTenants('delete expired idempotency keys, in every tenant', () =>
      this.db.query(
        `WITH gone AS (
           SELECT tenant_id, caller_id, key FROM ${this.table} WHERE expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         DELETE FROM ${this.table} k USING gone
          WHERE k.tenant_id = gone.tenant_id AND k.caller_id = gone.caller_id AND k.key = gone.key
         RETURNING 1`,
        [batch],
      ),
    );
    return rows.length;
  }
}

/** How often expired keys are deleted, and how many at most per run. */
export const IDEMPOTENCY_SWEEP_MS = 60_000;
const SWEEP_BATCH = 1_000;
const SWEEP_BATCHES_PER_RUN = 20;

/** Deletes expired keys (ScheduledSweep: every replica, bounded batches). */
@Injectable()
export class IdempotencySweep extends ScheduledSweep {
  constructor(
    private readonly store: IdempotencyStore,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, IDEMPOTENCY_SWEEP_MS, 'expired idempotency keys deleted');
  }

  async sweep(): Promise<number> {
    let total = 0;
    for (let i = 0; i < SWEEP_BATCHES_PER_RUN; i++) {
      const n = await this.store.deleteExpired(SWEEP_BATCH);
      total += n;
      if (n < SWEEP_BATCH) break;
    }
    return total;
  }
}

/** The store and the sweep, in every service (bootstrap imports it beside the platform module). */
@Module({ providers: [IdempotencyStore, IdempotencySweep], exports: [IdempotencyStore, IdempotencySweep] })
export class IdempotencyModule {}

const CLAIM = Symbol('idempotency-claim');

type KeyedRequest = FastifyRequest & {
  caller?: { tenantId: string; userId: string };
  [CLAIM]?: { scope: IdempotencyScope; claimId: string; heartbeat: NodeJS.Timeout };
};

/**
 * The Idempotency-Key step of a request (RequestStepsGuard runs it once the guard has resolved the
 * caller and the tenant's rate limit has let it through, so a limited request claims nothing).
 */
export class IdempotencyStep {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly log: Logger,
  ) {}

  /**
   * Claims the key of a POST or bulk PATCH that sends one. A retry of a finished request throws
   * its stored answer (SettledAnswer: the handler does not run); the same key with another
   * request is a 422; a key whose request still runs is a 409. The claim is kept alive while
   * the handler runs; the onSend hook (registerIdempotency) stores the answer.
   */
  async begin(request: KeyedRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || !request.caller || !isIdempotentOperation(request.method, request.url)) return;
    if ((request.routeOptions?.config as { idempotency?: boolean } | undefined)?.idempotency === false) return;
    const scope: IdempotencyScope = { tenantId: request.caller.tenantId, callerId: request.caller.userId, key: parseIdempotencyKey(header)! };
    const outcome = await this.store.claim(scope, requestFingerprint(request));
    switch (outcome.kind) {
      case 'mismatch':
        throw new AppError(ErrorCode.Unprocessable, 'This Idempotency-Key was used with another request (method, path or body); use a new key for a new request');
      case 'in-progress':
        reply.header('retry-after', IN_PROGRESS_RETRY_AFTER);
        throw conflict('A request with this Idempotency-Key is still in progress; retry once it has finished');
      case 'done': {
        const { status, headers, body } = outcome.answer;
        throw new SettledAnswer(status, { ...headers, [REPLAYED_HEADER]: 'true' }, body);
      }
      case 'claimed': {
        const { claimId } = outcome;
        const heartbeat = setInterval(() => {
          this.store.refresh(scope, claimId).catch((err: Error) => this.log.warn({ err: { message: err.message } }, 'idempotency claim refresh failed'));
        }, HEARTBEAT_MS);
        heartbeat.unref();
        request[CLAIM] = { scope, claimId, heartbeat };
      }
    }
  }
}

/**
 * Registers the mechanism on a service: the onSend hook that stores a claimed request's answer
 * (or releases the claim) as it leaves, whether the handler answered or failed; answers the step
 * the request steps run.
 */
export function registerIdempotency(fastify: FastifyInstance, store: IdempotencyStore, log: Logger): IdempotencyStep {
  const settle = async (claim: NonNullable<KeyedRequest[typeof CLAIM]>, reply: FastifyReply, payload: unknown): Promise<void> => {
    const { scope, claimId } = claim;
    const status = reply.statusCode;
    const body = payload === null || payload === undefined ? Buffer.alloc(0) : typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
    try {
      // Stored before the answer leaves: a retry arriving right after it finds the answer, not the claim.
      if (body && isStoredStatus(status)) await store.complete(scope, claimId, { status, body, headers: replayedHeaders(reply) });
      else await store.release(scope, claimId);
    } catch (err) {
      log.error({ err, key: scope.key }, 'could not store the idempotent answer; the claim is taken over once stale');
    }
  };
  // A callback hook, not an async one: the requests without a claim (nearly all) pass at no cost.
  fastify.addHook('onSend', (request: KeyedRequest, reply, payload, done) => {
    const claim = request[CLAIM];
    if (!claim) return done(null, payload);
    request[CLAIM] = undefined;
    clearInterval(claim.heartbeat);
    settle(claim, reply, payload).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });
  return new IdempotencyStep(store, log);
}

function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}
