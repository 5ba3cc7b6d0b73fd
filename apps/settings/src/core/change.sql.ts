import { SetClause, sql } from '@ddm/platform';

/**
 * The SET list a change by `by` starts with: when and by whom the record was last changed and,
 * when the change deletes it, its soft deletion. The service adds the fields the change names.
 */
export function auditedChange(by: string | null, deleting: boolean): SetClause {
  const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${by}`);
  if (deleting) sets.raw(sql`is_deleted = true`, sql`deleted_on = now()`, sql`deleted_by = ${by}`);
  return sets;
}
