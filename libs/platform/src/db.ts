import { EventPayload, EventSubject } from '@ddm/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { nextDisplayIds } from './database';
import { addManyToOutbox, addToOutbox } from './outbox';
import { Sql, rowsOf } from './sql';

export type Row = Record<string, unknown>;

/**
 * Anything that runs one statement and answers its rows (also for UPDATE/DELETE ... RETURNING):
 * `Db` outside a transaction, `Tx` inside one. A statement is an `Sql` fragment (values are
 * parameters by construction) or a fixed text with its parameters.
 */
export interface Queryable {
  query<T = Row>(statement: Sql): Promise<T[]>;
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * A unit of work: the statements of one transaction and the events it publishes, which leave
 * only if it commits. Requests (`Db.transaction`) and consumers (their handler's `tx`) get the same.
 */
export interface Tx extends Queryable {
  /** Queues an event of the registry; it is published only if the transaction commits. */
  publish<S extends EventSubject>(subject: S, payload: EventPayload<S>): Promise<void>;
  /** Queues several events of one subject in one statement (bulk changes). */
  publishMany<S extends EventSubject>(subject: S, payloads: readonly EventPayload<S>[]): Promise<void>;
  /** Next display id of `kind` in `tenantId` ("10000", "10001", ...). */
  nextDisplayId(tenantId: string, kind: string): Promise<string>;
  /** The next `count` display ids of `kind` in `tenantId`, in one statement (bulk creations). */
  nextDisplayIds(tenantId: string, kind: string, count: number): Promise<string[]>;
}

/** Something that must hear of committed outbox rows (the relay). */
export interface OutboxWaker {
  kick(): void;
}

function run(target: { query(text: string, params?: unknown[]): Promise<unknown> }, statement: Sql | string, params?: readonly unknown[]): Promise<unknown> {
  return statement instanceof Sql ? target.query(statement.text, statement.values as unknown[]) : target.query(statement, params as unknown[] | undefined);
}

class TransactionHandle implements Tx {
  published = false;

  constructor(
    private readonly manager: EntityManager,
    private readonly schema: string,
  ) {}

  async query<T>(statement: Sql | string, params?: readonly unknown[]): Promise<T[]> {
    return rowsOf<T>(await run(this.manager, statement, params));
  }

  async publish<S extends EventSubject>(subject: S, payload: EventPayload<S>): Promise<void> {
    await addToOutbox(this, this.schema, subject, payload);
    this.published = true;
  }

  async publishMany<S extends EventSubject>(subject: S, payloads: readonly EventPayload<S>[]): Promise<void> {
    if (!payloads.length) return;
    await addManyToOutbox(this, this.schema, subject, payloads);
    this.published = true;
  }

  async nextDisplayId(tenantId: string, kind: string): Promise<string> {
    const [id] = await nextDisplayIds(this, this.schema, tenantId, kind, 1);
    return id;
  }

  nextDisplayIds(tenantId: string, kind: string, count: number): Promise<string[]> {
    return nextDisplayIds(this, this.schema, tenantId, kind, count);
  }
}

/**
 * The service's database handle. `transaction` is the one way to change state: it commits the
 * rows and their events together, then wakes the outbox relay so the events leave at once.
 */
export class Db implements Queryable {
  constructor(
    private readonly dataSource: DataSource,
    readonly schema: string,
    private readonly relay: OutboxWaker,
  ) {}

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let handle: TransactionHandle | undefined;
    const result = await this.dataSource.transaction((manager) => {
      handle = new TransactionHandle(manager, this.schema);
      return work(handle);
    });
    if (handle?.published) this.relay.kick();
    return result;
  }

  /** A read (one statement, outside a transaction). */
  async query<T>(statement: Sql | string, params?: readonly unknown[]): Promise<T[]> {
    return rowsOf<T>(await run(this.dataSource, statement, params));
  }
}
