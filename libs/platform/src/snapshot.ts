/**
 * Projection backfill: the records a projection never heard of because their events aged out of
 * the EVENTS stream (7 days) before the projection existed.
 *
 * A projection is fed by events (ARCHITECTURE §5) and its durable consumer starts at the stream's
 * first message, which is enough while the stream still holds every event since the beginning. A
 * projection added to a running deployment later (or a consumer deleted) would never learn of a
 * record last changed more than 7 days ago. So:
 *
 * - The area that owns a record serves its current state on request: a `SnapshotSource` answers
 *   `sync.<source>` (NATS request/reply, queue group: one replica answers) with a page of payloads,
 *   each exactly what its events carry, across every tenant, in id order.
 * - A projection declaring `backfill` asks for every page once, when its table has never been
 *   backfilled and the stream no longer holds its first message, and applies each payload as the
 *   event would (versioned: the newest state wins whichever arrives first, a live event or the
 *   snapshot). Its consumer runs meanwhile. When every page is applied, `projection_backfills`
 *   records it; a crash before that asks again from the start at the next start-up. While the
 *   owning area does not answer, it asks again with back-off.
 */
import { Inject, Injectable, BeforeApplicationShutdown, OnApplicationBootstrap, Type } from '@nestjs/common';
import { EventPayload, EventSubject } from '@ddm/contracts';
import { JSONCodec, Subscription } from 'nats';
import { Logger } from 'pino';
import type { QueryRunner } from 'typeorm';
import { Db } from './db';
import { NatsClient } from './nats';
import type { Queryable } from './queryable';
import { LOGGER } from './platform.module';

const codec = JSONCodec();

/** The most payloads one page answers, and the most bytes (NATS' max_payload is 1 MiB). */
export const SNAPSHOT_PAGE_ITEMS = 200;
const SNAPSHOT_PAGE_BYTES = 768 * 1024;
const SOURCE_NAME = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

/** What `sync.<source>` answers: payloads in id order, and the id to ask after for the next page (null: the last page). */
export interface SnapshotPage {
  items: unknown[];
  next: string | null;
}

/**
 * The current state of one kind of record, served by the area that owns it: `name` is
 * `<area>.<records>` (`document.documents`); `subject` is the event whose payload each item is;
 * `page` reads up to `limit` records of every tenant with an id above `after`, in id order (it runs
 * across tenants).
 */
export interface SnapshotSource<S extends EventSubject> {
  name: string;
  subject: S;
  page(q: Queryable, after: string | null, limit: number): Promise<{ id: string; payload: EventPayload<S> }[]>;
}

/** `sync.<source>` on the wire. */
export function syncSubject(nats: NatsClient, source: string): string {
  if (!SOURCE_NAME.test(source)) throw new Error(`snapshot source "${source}" must be <area>.<records>`);
  return nats.subjects.wire(`sync.${source}`);
}

/** The provider that serves an area's snapshot sources (`providers: [snapshotSources(DOCUMENTS_SNAPSHOT)]`). */
export function snapshotSources(...sources: SnapshotSource<EventSubject>[]): Type<OnApplicationBootstrap & BeforeApplicationShutdown> {
  @Injectable()
  class SnapshotResponders implements OnApplicationBootstrap, BeforeApplicationShutdown {
    private readonly subs: Subscription[] = [];
    private readonly inflight = new Set<Promise<void>>();

    constructor(
      private readonly db: Db,
      private readonly nats: NatsClient,
      @Inject(LOGGER) private readonly log: Logger,
    ) {}

    async onApplicationBootstrap(): Promise<void> {
      for (const source of sources) {
        const subject = syncSubject(this.nats, source.name);
        this.subs.push(
          this.nats.nc.subscribe(subject, {
            queue: source.name,
            callback: (err, msg) => {
              if (err) return this.log.error({ err, source: source.name }, 'snapshot subscription error');
              const work = (async () => {
                try {
                  const asked = codec.decode(msg.data) as { after?: unknown };
                  const after = typeof asked?.after === 'string' ? asked.after : null;
                  msg.respond(codec.encode(await this.page(source, after)));
                } catch (e) {
                  this.log.error({ err: e, source: source.name }, 'snapshot page failed');
                  msg.respond(codec.encode({ error: 'the snapshot page could not be read' }));
                }
              })();
              this.inflight.add(work);
              void work.finally(() => this.inflight.delete(work));
            },
          }),
        );
      }
      await this.nats.nc.flush();
    }

    /** One page: at most SNAPSHOT_PAGE_ITEMS payloads and SNAPSHOT_PAGE_BYTES of them (at least one). */
    private async page(source: SnapshotSource<EventSubject>, after: string | null): Promise<SnapshotPage> {
      const rows = await this.db.acrossTenants(`snapshot of ${source.name} for a projection's backfill`, () => source.page(this.db, after, SNAPSHOT_PAGE_ITEMS));
      const items: unknown[] = [];
      let bytes = 0;
      let last: string | null = null;
      for (const r of rows) {
        const size = Buffer.byteLength(JSON.stringify(r.payload));
        if (items.length && bytes + size > SNAPSHOT_PAGE_BYTES) break;
        items.push(r.payload);
        bytes += size;
        last = r.id;
      }
      const whole = items.length === rows.length && rows.length < SNAPSHOT_PAGE_ITEMS;
      return { items, next: whole ? null : last };
    }

    async beforeApplicationShutdown(): Promise<void> {
      await Promise.all(this.subs.map((s) => s.drain().catch(() => undefined)));
      await Promise.all([...this.inflight]);
    }
  }
  return SnapshotResponders;
}

/** The table that records which projections were backfilled (`addProjectionBackfills` in the migration that adds the first one). */
export async function addProjectionBackfills(q: Pick<QueryRunner, 'query'>, schema: string): Promise<void> {
  await q.query(`CREATE TABLE "${schema}".projection_backfills (projection text PRIMARY KEY, rows bigint NOT NULL, completed_at timestamptz NOT NULL DEFAULT now())`);
}

export async function dropProjectionBackfills(q: Pick<QueryRunner, 'query'>, schema: string): Promise<void> {
  await q.query(`DROP TABLE IF EXISTS "${schema}".projection_backfills`);
}
