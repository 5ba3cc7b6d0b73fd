import { DataSource, EntityManager } from 'typeorm';
import { addManyToOutbox, addToOutbox, OutboxRelay } from './outbox';
import { nextDisplayId } from './database';
import { rowsOf } from './sql';

/** A unit of work: the entity manager of the open transaction and the outbox of the same transaction. */
export interface Tx {
  manager: EntityManager;
  /** One statement in the transaction; its rows (also for UPDATE/DELETE ... RETURNING). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Queues an event; it is published only if the transaction commits. */
  publish(subject: string, payload: object): Promise<void>;
  /** Queues several events of one subject in one statement (bulk changes); published only if the transaction commits. */
  publishMany(subject: string, payloads: object[]): Promise<void>;
  /** Next display id of `kind` in `tenantId` ("10000", "10001", ...). */
  nextDisplayId(tenantId: string, kind: string): Promise<string>;
}

/**
 * The service's database handle. `transaction` is the one way to change state: it commits the
 * rows and their events together, then wakes the outbox relay.
 */
export class Db {
  constructor(
    readonly dataSource: DataSource,
    readonly schema: string,
    private readonly relay: OutboxRelay,
  ) {}

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let wrote = false;
    const result = await this.dataSource.transaction(async (manager) =>
      work({
        manager,
        query: async (sql, params) => rowsOf(await manager.query(sql, params)),
        publish: async (subject, payload) => {
          wrote = true;
          await addToOutbox(manager, this.schema, subject, payload);
        },
        publishMany: async (subject, payloads) => {
          if (!payloads.length) return;
          wrote = true;
          await addManyToOutbox(manager, this.schema, subject, payloads);
        },
        nextDisplayId: (tenantId, kind) => nextDisplayId(manager, this.schema, tenantId, kind),
      }),
    );
    if (wrote) this.relay.kick();
    return result;
  }

  /** A read outside a transaction (one statement). */
  async query<T = unknown>(sql: string, params?: unknown[]): Promise<T[]> {
    return rowsOf(await this.dataSource.query(sql, params));
  }
}
