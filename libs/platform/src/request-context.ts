import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The work in progress: its request id (outbox rows and NATS requests carry it on), and the tenant
 * and actor it works for, which the data-access seam (`Db`) hands to PostgreSQL with every
 * statement, so row-level security keeps the work inside its tenant. Set by the platform: the
 * request's caller (once the guard knows it), a message's tenant (consumers, jobs), `inTenant`
 * for work started elsewhere (seeds, sweeps per tenant). `crossTenant` names the reason of an
 * explicit cross-tenant path (`Db.acrossTenants`).
 */
export interface WorkContext {
  requestId: string;
  tenantId?: string;
  actorId?: string;
  crossTenant?: string;
  /**
   * The changes the work committed (a request's: the x-consistency-token it answers), appended by
   * `Db.transaction` after each COMMIT of a transaction that published. `inTenant` and
   * `acrossTenants` hand the same array to the work they run, so nothing committed there is lost.
   */
  changes?: CommittedChange[];
}

/** A committed transaction that published events: its change id (uuid v7) and its events per subject (consistency.ts). */
export interface CommittedChange {
  changeId: string;
  counts: Record<string, number>;
}

export const requestContext = new AsyncLocalStorage<WorkContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

export function currentWork(): WorkContext | undefined {
  return requestContext.getStore();
}

/** Sets the tenant (and actor) of the work in progress, e.g. once the caller is known. */
export function enterTenant(tenantId: string, actorId?: string): void {
  const store = requestContext.getStore();
  if (store) {
    store.tenantId = tenantId;
    store.actorId = actorId;
  } else {
    requestContext.enterWith({ requestId: '', tenantId, actorId });
  }
}

/** Runs `work` for a tenant (a seed, one tenant's share of a sweep), keeping the request id. */
export function inTenant<T>(tenantId: string, work: () => T, actorId?: string): T {
  const outer = requestContext.getStore();
  return requestContext.run({ requestId: outer?.requestId ?? '', tenantId, actorId, changes: outer?.changes }, work);
}

/**
 * Runs `work` on the explicit cross-tenant path: statements through `Db` see every tenant's rows.
 * For work that is cross-tenant by nature (a sweep over every tenant, the seed of the demo
 * tenants); `Db.acrossTenants` is the same, logged. `reason` says why, in the logs.
 */
export function acrossTenants<T>(reason: string, work: () => T): T {
  const outer = requestContext.getStore();
  return requestContext.run({ requestId: outer?.requestId ?? '', crossTenant: reason, changes: outer?.changes }, work);
}
