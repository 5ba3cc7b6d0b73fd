import { conflict } from '@ddm/contracts';
import type { Queryable } from './queryable';

/**
 * A name unique in its tenant among the records not deleted, case-insensitively: a partial
 * unique index on (tenant_id, lower(column)) WHERE NOT is_deleted backs the service's check.
 */
export interface TenantUniqueName {
  /** Schema-qualified table, e.g. `settings.positions`. */
  table: string;
  /** The name column, e.g. `position_name`. */
  column: string;
  /** The unique index (constraint) name, e.g. `positions_name_unique`. */
  index: string;
  /** The 409 message when `name` is taken. */
  taken: (name: string) => string;
}

/** 409 (the resource's own message) when another live record of the tenant has the name, in any case; `except` is the record being renamed. */
export async function refuseTakenName(m: Queryable, u: TenantUniqueName, tenantId: string, name: string, except: string | null): Promise<void> {
  const taken = await m.query(
    `SELECT 1 FROM ${u.table} WHERE tenant_id = $1 AND lower(${u.column}) = lower($2) AND NOT is_deleted AND id IS DISTINCT FROM $3::uuid LIMIT 1`,
    [tenantId, name, except],
  );
  if (taken.length) throw conflict(u.taken(name));
}

/** The unique constraint a Postgres error (raw or wrapped by TypeORM) violated, or null when it is not a unique violation (23505). */
export function violatedUniqueConstraint(err: unknown): string | null {
  const e = err as { code?: unknown; constraint?: unknown; driverError?: { code?: unknown; constraint?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  if (code !== '23505') return null;
  const constraint = e?.driverError?.constraint ?? e?.constraint;
  return typeof constraint === 'string' ? constraint : '';
}

/**
 * Runs a write; a unique violation of one of the constraints named becomes a 409 with its message.
 * A concurrent request that took the value between the service's check and this write then gets
 * the same answer as the check would have given. Other errors pass through unchanged.
 */
export async function uniqueViolationAs<T>(messages: Readonly<Record<string, string>>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const constraint = violatedUniqueConstraint(err);
    if (constraint && Object.prototype.hasOwnProperty.call(messages, constraint)) throw conflict(messages[constraint]);
    throw err;
  }
}

/** `uniqueViolationAs` for a tenant-unique name: the index's violation is the name's 409. */
export function writeUniqueName<T>(u: TenantUniqueName, name: string, write: () => Promise<T>): Promise<T> {
  return uniqueViolationAs({ [u.index]: u.taken(name) }, write);
}
