import { Inject, Injectable } from '@nestjs/common';
import { CALLER_RESOLVER, CallerChangedEvent, CallerResolver, LOGICAL } from '@ddm/contracts';
import { Db, Tx } from '@ddm/platform';

/** Announces, inside a unit of work, that cached callers must be dropped. */
export type CallerChanged = (event: CallerChangedEvent) => Promise<void>;

/**
 * A transaction whose changes alter callers (roles, memberships, role keys). The
 * `auth.caller.changed` event goes through the outbox (so every process drops its cached callers
 * once it commits); this process's own cache is dropped right after the commit, before the
 * response leaves, so the very next request is resolved afresh even before the relay has run.
 */
@Injectable()
export class CallerChanges {
  constructor(
    private readonly db: Db,
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
    for (const event of events) this.resolver.invalidate(event);
    return result;
  }
}
