import { Inject, Injectable } from '@nestjs/common';
import { CALLER_RESOLVER, CallerChangedEvent, CallerResolver, LOGICAL } from '@ddm/contracts';
import { Db, NatsClient, Tx } from '@ddm/platform';
import { JSONCodec } from 'nats';

const codec = JSONCodec();

/** Announces, inside a unit of work, that cached callers must be dropped. */
export type CallerChanged = (event: CallerChangedEvent) => Promise<void>;

/**
 * A transaction whose changes alter callers (roles, memberships, role keys). The
 * `auth.caller.changed` event goes through the outbox (so it is never lost, even on a crash right
 * after the commit). Right after the commit, before the response leaves, this process's own cache
 * is dropped and the event is also sent at once on core NATS (flushed), so every other service's
 * cache drops it before the caller can send the next request, without waiting for the relay.
 * A repeated invalidation is harmless.
 */
@Injectable()
export class CallerChanges {
  constructor(
    private readonly db: Db,
    private readonly nats: NatsClient,
    @Inject(CALLER_RESOLVER) private readonly resolver: CallerResolver,
  ) {}

  async transaction<T>(work: (tx: Tx, callerChanged: CallerChanged) => Promise<T>): Promise<T> {
    const events: CallerChangedEvent[] = [];
    const result = await this.db.transaction((tx) =>
      work(tx, async (event) => {
        events.push(event);
        await tx.publish(LOGICAL.callerChanged, event);
      }),
    );
    for (const event of events) {
      this.resolver.invalidate(event);
      this.nats.nc.publish(this.nats.subjects.callerChanged, codec.encode(event));
    }
    if (events.length) await this.nats.nc.flush();
    return result;
  }
}
