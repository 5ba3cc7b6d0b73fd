/**
 * The seam every statement goes through, as types only: what runs a statement (`Queryable`) and a
 * unit of work (`Tx`). `Db` (db.ts) implements both; the rest of the platform and every service
 * take these, so nothing that runs SQL needs to import the pool.
 */
import { EventPayload, EventSubject } from '@ddm/contracts';
import { Prepared, Sql } from './sql';

export type Row = Record<string, unknown>;

/**
 * Anything that runs one statement and answers its rows (also for UPDATE/DELETE ... RETURNING):
 * `Db` outside a transaction, `Tx` inside one. A statement is an `Sql` fragment (values are
 * parameters by construction) or a fixed text (or a Prepared one) with its parameters.
 */
export interface Queryable {
  query<T = Row>(statement: Sql): Promise<T[]>;
  query<T = Row>(text: string | Prepared, params?: readonly unknown[]): Promise<T[]>;
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
