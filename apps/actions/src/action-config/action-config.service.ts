import { Injectable } from '@nestjs/common';
import { Db, Queryable } from '@ddm/platform';
import { LRUCache } from 'lru-cache';
import { defaultConfiguration } from './action-config.rules';
import { INSERT_DEFAULT_PRIORITIES_SQL, INSERT_DEFAULT_STATUSES_SQL, INSERT_DEFAULT_TYPES_SQL, PRIORITIES_SQL, STATUSES_SQL, TYPES_SQL } from './action-config.sql';
import { ActionPriorityView, ActionStatusView, ActionTypeView, PriorityRow, StatusRow, TypeRow, toPriorityView, toStatusView, toTypeView } from './dto/action-config.response';

/**
 * A tenant's action configuration: statuses, priorities and types. Every tenant gets the defaults
 * from evt.auth.tenant.created (tenant-defaults.consumer.ts) and, as a backstop, before anything
 * reads or writes its actions (`ensureDefaults`, once per tenant and process).
 */
@Injectable()
export class ActionConfigService {
  /** Tenants whose defaults this process has made sure of (bounded: the others are made sure of again, harmlessly). */
  private readonly ensured = new LRUCache<string, true>({ max: 10_000 });

  constructor(private readonly db: Db) {}

  async ensureDefaults(tenantId: string): Promise<void> {
    if (this.ensured.has(tenantId)) return;
    await insertDefaults(this.db, tenantId);
    this.ensured.set(tenantId, true);
  }

  async statuses(tenantId: string): Promise<ActionStatusView[]> {
    await this.ensureDefaults(tenantId);
    return (await this.db.query<StatusRow>(STATUSES_SQL, [tenantId])).map(toStatusView);
  }

  async priorities(tenantId: string): Promise<ActionPriorityView[]> {
    await this.ensureDefaults(tenantId);
    return (await this.db.query<PriorityRow>(PRIORITIES_SQL, [tenantId])).map(toPriorityView);
  }

  async types(tenantId: string): Promise<ActionTypeView[]> {
    await this.ensureDefaults(tenantId);
    return (await this.db.query<TypeRow>(TYPES_SQL, [tenantId])).map(toTypeView);
  }
}

/** Inserts the default statuses, priorities and types the tenant lacks (derived ids: inserting twice changes nothing). */
export async function insertDefaults(q: Queryable, tenantId: string): Promise<void> {
  const c = defaultConfiguration(tenantId);
  await q.query(INSERT_DEFAULT_STATUSES_SQL, [tenantId, c.statuses.map((s) => s.id), c.statuses.map((s) => s.key), c.statuses.map((s) => s.name), c.statuses.map((s) => s.position)]);
  await q.query(INSERT_DEFAULT_PRIORITIES_SQL, [
    tenantId,
    c.priorities.map((p) => p.id),
    c.priorities.map((p) => p.key),
    c.priorities.map((p) => p.name),
    c.priorities.map((p) => p.colorName),
    c.priorities.map((p) => p.position),
  ]);
  await q.query(INSERT_DEFAULT_TYPES_SQL, [tenantId, c.types.map((t) => t.id), c.types.map((t) => t.type), c.types.map((t) => t.name), c.types.map((t) => t.typeIcon), c.types.map((t) => t.position)]);
}
