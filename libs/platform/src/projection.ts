/**
 * Local copies of another area's records, fed by its events (ARCHITECTURE §5): the one way a
 * service writes its `projections/` tables. Every projection table has its key column, `tenant_id`,
 * the projected columns, `version bigint` (null when events carry none) and `updated_on`.
 */
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Type } from '@nestjs/common';
import { EventMessageOf, EventSubject, readEvent } from '@ddm/contracts';
import { JSONCodec } from 'nats';
import { Logger } from 'pino';
import { Consumers, pause, restartDelayMs } from './consumer';
import { Db } from './db';
import { NatsClient } from './nats';
import { LOGGER } from './platform.module';
import type { Queryable, Tx } from './queryable';
import { SnapshotPage, syncSubject } from './snapshot';
import { Sql, join, raw, sql } from './sql';

export interface VersionedProjectionChange {
  /** Schema-qualified table (code-owned), e.g. `settings.delegation_projection`. */
  table: string;
  /** Its key column and the record's id. */
  key: string;
  id: string;
  /** The record's tenant: a record never moves between tenants (an event naming a known id under another tenant changes nothing). */
  tenantId: string;
  /**
   * The table's key is (tenant_id, key): the same record has a row in each tenant (a user, who is
   * a member of several). Otherwise the key alone is unique, and the row is pinned to its tenant.
   */
  perTenant?: boolean;
  /**
   * Increases with every change of the record. An event older than (or as old as) what the row
   * holds changes nothing; without a version (null) events apply in the order they arrive.
   */
  version?: number | null;
  /** Projected columns (code-owned names) and their values: written on insert and by every newer event. */
  values: Readonly<Record<string, unknown>>;
  /**
   * A state that once reached stays, whatever comes later (a revoked delegation): the column (a
   * timestamptz, null until then) holds when it was reached. An event reaching it always counts,
   * even an older one; it never brings the record back.
   */
  terminal?: { column: string; reached: boolean };
  /**
   * Only a row the table lacks is written (a backfill of rows without a version: the events the
   * stream holds, applied in order, bring a row the snapshot and an event both write to its newest state).
   */
  missingOnly?: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

function identifier(name: string): Sql {
  if (!IDENTIFIER.test(name)) throw new Error(`projection: "${name}" is not a plain identifier`);
  return raw(name);
}

/**
 * Applies one event to a projection row in one statement (insert or update). Answers whether the
 * row changed; false when the event was older than the row, or the id belongs to another tenant.
 */
export async function applyVersionedProjection(q: Queryable, change: VersionedProjectionChange): Promise<boolean> {
  const columns = Object.keys(change.values).map(identifier);
  const values = Object.values(change.values);
  const table = identifier(change.table);
  const key = identifier(change.key);
  const terminal = change.terminal ? identifier(change.terminal.column) : null;
  const version = change.version ?? null;

  const insertColumns = join([key, raw('tenant_id'), ...columns, ...(terminal ? [terminal] : []), raw('version'), raw('updated_on')]);
  const insertValues = join([
    sql`${change.id}`,
    sql`${change.tenantId}`,
    ...values.map((v) => sql`${v}`),
    ...(terminal ? [sql`CASE WHEN ${change.terminal!.reached}::boolean THEN now() END`] : []),
    sql`${version}::bigint`,
    sql`now()`,
  ]);
  // Newer: the event has no version, the row has none, or the event's is higher.
  const newer = sql`(EXCLUDED.version IS NULL OR t.version IS NULL OR EXCLUDED.version > t.version)`;
  const sets = join([
    ...columns.map((c) => sql`${c} = CASE WHEN ${newer} THEN EXCLUDED.${c} ELSE t.${c} END`),
    ...(terminal ? [sql`${terminal} = coalesce(t.${terminal}, EXCLUDED.${terminal})`] : []),
    sql`version = GREATEST(t.version, EXCLUDED.version)`,
    sql`updated_on = now()`,
  ]);
  const applies = terminal ? sql`(${newer} OR (EXCLUDED.${terminal} IS NOT NULL AND t.${terminal} IS NULL))` : newer;
  const conflict = change.perTenant ? sql`tenant_id, ${key}` : key;
  const onConflict = change.missingOnly ? sql`DO NOTHING` : sql`DO UPDATE SET ${sets} WHERE t.tenant_id = EXCLUDED.tenant_id AND ${applies}`;
  const rows = await q.query(sql`INSERT INTO ${table} AS t (${insertColumns}) VALUES (${insertValues})
    ON CONFLICT (${conflict}) ${onConflict}
    RETURNING 1`);
  return rows.length > 0;
}

/** The row an event asks for: everything of a change but the table and key, which the projection names. */
export type ProjectedRow = Omit<VersionedProjectionChange, 'table' | 'key' | 'perTenant' | 'missingOnly'>;

/**
 * A projection, declared once per service and table: the durable consumer's name, the subjects it
 * follows, the table and key, and the row each event asks for. `afterChange` runs in the same
 * transaction when the row changed (a deleted position leaves its users, ...).
 */
export interface ProjectionSpec<S extends EventSubject> {
  name: string;
  subjects: readonly S[];
  table: string;
  key: string;
  /** See VersionedProjectionChange.perTenant. */
  perTenant?: boolean;
  row(message: EventMessageOf<S>): ProjectedRow;
  afterChange?(tx: Tx, message: EventMessageOf<S>): Promise<void>;
  /**
   * Where the records come from that the stream no longer holds (snapshot.ts): a projection added
   * to a running deployment learns of records last changed before the stream's oldest event. A
   * versioned row: the newest state wins, whichever arrives first, the snapshot or an event; a row
   * without a version: the snapshot writes only rows the table lacks (the retained events, applied
   * in order, bring any other to its newest state).
   */
  backfill?: ProjectionBackfill<S>;
}

/** Applies one message to its projection (what the consumer does with each message, in its transaction). */
export async function applyProjection<S extends EventSubject>(tx: Tx, spec: ProjectionSpec<S>, message: EventMessageOf<S>, backfill = false): Promise<boolean> {
  const row = spec.row(message);
  // A backfilled row without a version fills only what is missing (see VersionedProjectionChange.missingOnly).
  const missingOnly = backfill && (row.version === undefined || row.version === null);
  const changed = await applyVersionedProjection(tx, { table: spec.table, key: spec.key, perTenant: spec.perTenant, ...row, missingOnly });
  if (changed && spec.afterChange) await spec.afterChange(tx, message);
  return changed;
}

/**
 * The provider that runs a service's projections: one durable consumer per spec, started when the
 * app is up (`providers: [projectionConsumers(DELEGATIONS, POSITIONS)]`); a spec with `backfill`
 * is backfilled beside its consumer when it needs it (backfillProjection).
 */
export function projectionConsumers(...specs: ProjectionSpec<EventSubject>[]): Type<OnApplicationBootstrap & BeforeApplicationShutdown> {
  @Injectable()
  class ProjectionConsumers implements OnApplicationBootstrap, BeforeApplicationShutdown {
    private readonly stop = new AbortController();
    private readonly backfills: Promise<unknown>[] = [];

    constructor(
      private readonly consumers: Consumers,
      private readonly db: Db,
      private readonly nats: NatsClient,
      @Inject(LOGGER) private readonly log: Logger,
    ) {}

    async onApplicationBootstrap(): Promise<void> {
      for (const spec of specs) {
        await this.consumers.start({ name: spec.name, subjects: spec.subjects, handle: (message, tx) => applyProjection(tx, spec, message) });
        if (spec.backfill) {
          const run = backfillProjection(this.db, this.nats, this.log, spec as BackfilledSpec<EventSubject>, this.stop.signal).catch((err) =>
            this.log.error({ err, projection: spec.name }, 'projection backfill failed; it runs again at the next start'),
          );
          this.backfills.push(run);
        }
      }
    }

    async beforeApplicationShutdown(): Promise<void> {
      this.stop.abort();
      await Promise.all(this.backfills);
    }
  }
  return ProjectionConsumers;
}

/** Where a projection's backfill comes from: the owning area's snapshot source (`document.documents`) and the event its payloads are. */
export interface ProjectionBackfill<S extends EventSubject> {
  source: string;
  subject: S;
}

type BackfilledSpec<S extends EventSubject> = ProjectionSpec<S> & { backfill: ProjectionBackfill<S> };

const codec = JSONCodec();
/** How long a backfill waits for a page before asking again. */
const SNAPSHOT_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Backfills `spec` once, if it needs it (snapshot.ts says when and how): answers how many payloads it
 * applied, or null when none was needed (already done, or the stream still holds its first event).
 * Asks again with back-off while the owning area does not answer; stops early when `signal` aborts.
 */
export async function backfillProjection<S extends EventSubject>(
  db: Db,
  nats: NatsClient,
  log: Logger,
  spec: BackfilledSpec<S>,
  signal: AbortSignal,
): Promise<number | null> {
  const done = await db.query(`SELECT 1 FROM "${db.schema}".projection_backfills WHERE projection = $1`, [spec.name]);
  if (done.length) return null;
  const stream = await nats.jsm.streams.info(nats.subjects.eventsStream);
  if (stream.state.first_seq <= 1) {
    // Nothing aged out: the consumer (which starts at the first message) hears of every record.
    await recordBackfill(db, spec.name, 0);
    return null;
  }
  const subject = syncSubject(nats, spec.backfill.source);
  log.info({ projection: spec.name, source: spec.backfill.source, streamFirstSeq: stream.state.first_seq }, 'projection backfill: asking for the current state');
  let after: string | null = null;
  let applied = 0;
  let failures = 0;
  while (!signal.aborted) {
    let page: SnapshotPage;
    try {
      const reply = await nats.nc.request(subject, codec.encode({ after }), { timeout: SNAPSHOT_REQUEST_TIMEOUT_MS });
      const answer = codec.decode(reply.data) as Partial<SnapshotPage> & { error?: string };
      if (!Array.isArray(answer.items)) throw new Error(answer.error ?? 'the snapshot page has no items');
      page = { items: answer.items, next: typeof answer.next === 'string' ? answer.next : null };
      failures = 0;
    } catch (err) {
      log.warn({ err, projection: spec.name, source: spec.backfill.source }, 'projection backfill: the owning area did not answer; asking again');
      await pause(restartDelayMs(failures++), signal);
      continue;
    }
    const messages = page.items.map((item) => {
      const { payload, problems } = readEvent(spec.backfill.subject, item);
      if (problems.length) throw new Error(`projection backfill ${spec.name}: a snapshot item is not a valid ${spec.backfill.subject}: ${problems.join('; ')}`);
      return { subject: spec.backfill.subject, payload } as Parameters<typeof applyProjection<S>>[2];
    });
    await db.acrossTenants(`backfill of the projection ${spec.name}`, () =>
      db.transaction(async (tx) => {
        for (const m of messages) await applyProjection(tx, spec, m, true);
      }),
    );
    applied += messages.length;
    if (page.next === null) {
      await recordBackfill(db, spec.name, applied);
      log.info({ projection: spec.name, rows: applied }, 'projection backfill: done');
      return applied;
    }
    after = page.next;
  }
  return null;
}

async function recordBackfill(db: Db, projection: string, rows: number): Promise<void> {
  await db.query(`INSERT INTO "${db.schema}".projection_backfills (projection, rows) VALUES ($1, $2) ON CONFLICT (projection) DO NOTHING`, [projection, rows]);
}
