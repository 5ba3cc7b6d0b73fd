import { Injectable } from '@nestjs/common';
import { Db, Queryable } from '@ddm/platform';
import { LRUCache } from 'lru-cache';
import { defaultConfiguration } from './action-config.rules';
import { INSERT_DEFAULT_PRIORITIES_SQL, INSERT_DEFAULT_STATUSES_SQL, INSERT_DEFAULT_TYPES_SQL, STATUSES_SQL } from './action-config.sql';
import { ActionStatusView, StatusRow, toStatusView } from './dto/action-config.response';

/**
 * What other resources (actions) and the configuration's own service ask of a tenant's action
 * configuration: that the tenant has its defaults (once per tenant and process), and its statuses.
 */
@Injectable()
export class ActionConfigRefs {
  /** Tenants whose defaults this process has made sure of (bounded: the others are made sure of again, harmlessly). */
  private readonly ensured = new LRUCache<string, true>({ max: 10_000 });

  constructor(private readonly db: Db) {}

  /** Makes sure the tenant has its default statuses, priorities and types: a backstop of the tenant-created consumer. */
  async ensureDefaults(tenantId: string): Promise<void> {
    if (this.ensured.has(tenantId)) return;
    await insertDefaultConfiguration(this.db, tenantId);
    this.ensured.set(tenantId, true);
  }

  /** The tenant's statuses, in their order. */
  async statuses(tenantId: string): Promise<ActionStatusView[]> {
    await this.ensureDefaults(tenantId);
    return (await this.db.query<StatusRow>(STATUSES_SQL, [tenantId])).map(toStatusView);
  }
}

/**
 * Inserts the default statuses, priorities and types the tenant lacks (derived ids: inserting twice
 * changes nothing). The tenant-created consumer calls it in the transaction that records its
 * message, and opening a system action before it inserts the action.
 */
export async function insertDefaultConfiguration(q: Queryable, tenantId: string): Promise<void> {
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
