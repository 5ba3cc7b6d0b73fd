import { LRUCache } from 'lru-cache';

/**
 * A tenant's idempotent set-up (its default records), made sure of once per process: after the
 * first success for a tenant it costs nothing. Bounded, so a process serving many tenants keeps
 * only the recent ones (the others are made sure of again, harmlessly).
 */
export class PerTenantOnce {
  private readonly done = new LRUCache<string, true>({ max: 10_000 });

  async run(tenantId: string, work: () => Promise<void>): Promise<void> {
    if (this.done.has(tenantId)) return;
    await work();
    this.done.set(tenantId, true);
  }
}
