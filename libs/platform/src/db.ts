import { EventPayload, EventSubject } from '@ddm/contracts';
import { Logger } from 'pino';
import * as pg from 'pg';
import { Pool, PoolClient, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { nextDisplayIds } from './database';
import { addManyToOutbox, addToOutbox } from './outbox';
import { CommittedChange, WorkContext, acrossTenants, currentWork } from './request-context';
import { Prepared, Sql } from './sql';
import type { Queryable, Tx } from './queryable';
import { ACTOR_SETTING, CROSS_TENANT_ROLE, NO_TENANT, REQUEST_SETTING, TENANT_SETTING } from './tenancy';

/** Something that must hear of committed outbox rows (the relay). */
export interface OutboxWaker {
  kick(): void;
}

type Client = PoolClient;

function run(client: Client, statement: Sql | Prepared | string, params?: readonly unknown[]): Promise<QueryResult> {
  if (statement instanceof Sql) return client.query(statement.text, statement.values as unknown[]);
  if (statement instanceof Prepared) return client.query({ name: statement.name, text: statement.text, values: params as unknown[] | undefined });
  return client.query(statement, params as unknown[] | undefined);
}

class TransactionHandle implements Tx {
  published = false;
  /** The change this transaction makes, from its first publish: its id (uuid v7) and its events per subject. */
  change?: CommittedChange;

  constructor(
    private readonly client: Client,
    private readonly schema: string,
  ) {}

  async query<T>(statement: Sql | Prepared | string, params?: readonly unknown[]): Promise<T[]> {
    return (await run(this.client, statement, params)).rows as T[];
  }

  async publish<S extends EventSubject>(subject: S, payload: EventPayload<S>): Promise<void> {
    const change = (this.change ??= { changeId: uuidv7(), counts: {} });
    await addToOutbox(this, this.schema, subject, payload, change.changeId);
    this.counted(subject, 1);
  }

  async publishMany<S extends EventSubject>(subject: S, payloads: readonly EventPayload<S>[]): Promise<void> {
    if (!payloads.length) return;
    const change = (this.change ??= { changeId: uuidv7(), counts: {} });
    await addManyToOutbox(this, this.schema, subject, payloads, change.changeId);
    this.counted(subject, payloads.length);
  }

  /** Counted once written: an event refused (and caught) is not one the token waits for. */
  private counted(subject: string, n: number): void {
    this.change!.counts[subject] = (this.change!.counts[subject] ?? 0) + n;
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

export interface TransactionOptions {
  /** The isolation level (READ COMMITTED otherwise). */
  isolation?: 'REPEATABLE READ' | 'SERIALIZABLE';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who the database is told the work is for: the tenant the policies admit, the role, the actor. */
interface Session {
  tenant: string;
  role: string;
  actor: string;
  requestId: string;
}

function sessionOf(work: WorkContext | undefined): Session {
  const cross = !!work?.crossTenant;
  const tenant = !cross && work?.tenantId && UUID.test(work.tenantId) ? work.tenantId.toLowerCase() : NO_TENANT;
  const actor = work?.actorId && UUID.test(work.actorId) ? work.actorId.toLowerCase() : '';
  return { tenant, role: cross ? CROSS_TENANT_ROLE : 'none', actor, requestId: work?.requestId ?? '' };
}

/**
 * The pooled connections' session settings (tenant, role and plan cache mode) as `Db` last set them.
 * A read of a Prepared statement with `genericPlan` runs with plan_cache_mode force_generic_plan
 * (its one plan, made once per connection), every other read with auto, and a transaction always
 * with auto (set for the transaction in its BEGIN round trip): the mode is switched only when a
 * connection goes from one kind of read to the other, in the round trip that sets the tenant.
 */
const sessions = new WeakMap<Client, string>();

/** pg's own conversion of a parameter to the text it sends (public on the module as `utils`, untyped). */
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): string | Buffer | null } }).utils.prepareValue;

/**
 * A statement's text with its values written in as literals, for the simple query protocol (a
 * statement after the tenant's settings in one round trip). Each value is the text pg would bind
 * for it, quoted by `escapeLiteral`: an untyped literal is typed by its context exactly as an
 * untyped parameter is. The values go between the Sql's own text pieces: no text is parsed. Null
 * when a value holds a NUL character, which a query's text cannot carry (the statement then goes
 * as before, with its parameters, and fails as it would have).
 */
export function withLiterals(statement: Sql, escapeLiteral: (text: string) => string): string | null {
  let out = statement.strings[0];
  for (let i = 0; i < statement.values.length; i++) {
    const value = prepareValue(statement.values[i]);
    if (typeof value === 'string' && value.includes('\0')) return null;
    out += value === null ? 'NULL' : Buffer.isBuffer(value) ? `'\\x${value.toString('hex')}'` : escapeLiteral(value);
    out += statement.strings[i + 1];
  }
  return out;
}

/** A connection error (not a statement's): the connection is dropped from the pool. */
function brokenConnection(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return !(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code));
}

/**
 * The service's database handle, the one data-access seam. Every statement runs for the tenant of
 * the work in progress (`requestContext`): `transaction` opens with the tenant, the actor and the
 * request id as transaction-local settings in the same round trip as BEGIN; a read outside a
 * transaction sets the connection's tenant first only when it last served another (so reads of
 * one tenant cost no extra round trip). Row-level security does the rest (tenancy.ts).
 * `transaction` is the one way to change state: it commits the rows and their events together,
 * then wakes the outbox relay so the events leave at once, and adds the change (its id and events
 * per subject) to the work's `changes`, which a request answers as its consistency token.
 */
export class Db implements Queryable {
  private readonly pool: Pool;

  constructor(
    dataSource: DataSource,
    readonly schema: string,
    private readonly relay: OutboxWaker,
    private readonly log?: Logger,
  ) {
    this.pool = (dataSource.driver as unknown as { master: Pool }).master;
  }

  async transaction<T>(work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const context = currentWork();
    const session = sessionOf(context);
    const { client, broken, release } = await this.checkout();
    let failed: unknown;
    try {
      const begin = options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation}` : 'BEGIN';
      await client.query(
        `${begin}; SELECT set_config('${TENANT_SETTING}', '${session.tenant}', true), set_config('role', '${session.role}', true),` +
          ` set_config('${ACTOR_SETTING}', '${session.actor}', true), set_config('${REQUEST_SETTING}', ${client.escapeLiteral(session.requestId)}, true),` +
          ` set_config('plan_cache_mode', 'auto', true)`,
      );
      const handle = new TransactionHandle(client, this.schema);
      let result: T;
      try {
        result = await work(handle);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
      if (handle.published) {
        // Only now, committed: a rolled-back (or retried) transaction is no change a token may name.
        context?.changes?.push(handle.change!);
        this.relay.kick();
      }
      return result;
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      release(broken() ?? (failed && brokenConnection(failed) ? (failed as Error) : undefined));
    }
  }

  /** A read (one statement, outside a transaction). */
  async query<T>(statement: Sql | Prepared | string, params?: readonly unknown[]): Promise<T[]> {
    const session = sessionOf(currentWork());
    const { client, broken, release } = await this.checkout();
    let failed: unknown;
    try {
      const planMode = statement instanceof Prepared && statement.genericPlan ? 'force_generic_plan' : 'auto';
      const key = `${session.tenant}|${session.role}|${planMode}`;
      if (sessions.get(client) !== key) {
        sessions.delete(client);
        // The tenant (a checked uuid), the role and the mode are the code's own values, written in.
        const settings = `SELECT set_config('${TENANT_SETTING}', '${session.tenant}', false), set_config('role', '${session.role}', false), set_config('plan_cache_mode', '${planMode}', false)`;
        const text = statement instanceof Sql ? withLiterals(statement, (t) => client.escapeLiteral(t)) : null;
        if (text !== null) {
          // One round trip: the settings and the statement as one simple query (one implicit
          // transaction: if the statement fails, the settings are undone with it, and the
          // connection is not recorded as set). A Prepared keeps its named statement: two.
          const results = (await client.query(`${settings}; ${text}`)) as unknown as QueryResult[];
          sessions.set(client, key);
          return results[results.length - 1].rows as T[];
        }
        await client.query(settings);
        sessions.set(client, key);
      }
      return (await run(client, statement, params)).rows as T[];
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      release(broken() ?? (failed && brokenConnection(failed) ? (failed as Error) : undefined));
    }
  }

  /**
   * A connection of the pool, listened to while it is out: pg emits 'error' on a checked-out
   * client whose server goes away between statements (a restart, a failover), and an 'error'
   * nobody listens to ends the process. The error is kept; the connection goes back broken.
   */
  private async checkout(): Promise<{ client: Client; broken: () => Error | undefined; release: (err?: Error) => void }> {
    const client = await this.pool.connect();
    let lost: Error | undefined;
    const onError = (err: Error) => {
      lost ??= err;
      this.log?.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database connection lost while in use');
    };
    client.on('error', onError);
    return {
      client,
      broken: () => lost,
      release: (err) => {
        // A connection given back broken is closed by the pool and may still say 'error': it stays heard.
        if (!err) client.removeListener('error', onError);
        client.release(err);
      },
    };
  }

  /**
   * The explicit cross-tenant path (auth's caller resolution, a sweep over every tenant): `work`
   * and every statement it runs through this `Db` see every tenant's rows. Logged with its reason.
   */
  acrossTenants<T>(reason: string, work: () => Promise<T>): Promise<T> {
    this.log?.debug({ reason, requestId: currentWork()?.requestId }, 'cross-tenant work');
    return acrossTenants(reason, work);
  }
}
