/**
 * The SQL of a tenant's delegation settings: its one row (none before the first change) and the
 * change, which writes the row or updates the named columns and counts the version, in one
 * statement. Timestamps leave the database as ISO 8601; updated_by, a user id, is answered as
 * that user's name.
 */
import { isoSql as iso } from '@ddm/platform';

const nameOf = (userId: string) => `(SELECT coalesce(a.name, a.email) FROM auth.users a WHERE a.id = ${userId})`;

const COLUMNS = `s.tenant_id, s.delegation_acceptance_required, s.delegation_approval_required, s.base_currency,
  s.version::text AS version, ${iso('s.updated_on')} AS updated_on, ${nameOf('s.updated_by')} AS updated_by`;

/** $1 = tenant id. No row: the tenant has the defaults. */
export const TENANT_SETTINGS_SQL = `SELECT ${COLUMNS} FROM auth.tenant_settings s WHERE s.tenant_id = $1`;

/**
 * $1 = tenant id; $2, $3, $4 = acceptance, approval, currency as asked (null: unchanged);
 * $5, $6, $7 = the same with the defaults for what was not asked (the first row); $8 = the writer.
 * Concurrent changes of one tenant serialise on its row: each gets its own version.
 */
export const CHANGE_TENANT_SETTINGS_SQL = `
  WITH s AS (
    INSERT INTO auth.tenant_settings AS t
           (tenant_id, delegation_acceptance_required, delegation_approval_required, base_currency, version, updated_on, updated_by)
    VALUES ($1, $5::boolean, $6::boolean, $7::varchar, 1, now(), $8::uuid)
    ON CONFLICT (tenant_id) DO UPDATE SET
      delegation_acceptance_required = coalesce($2::boolean, t.delegation_acceptance_required),
      delegation_approval_required = coalesce($3::boolean, t.delegation_approval_required),
      base_currency = coalesce($4::varchar, t.base_currency),
      version = t.version + 1,
      updated_on = now(),
      updated_by = EXCLUDED.updated_by
    RETURNING t.*)
  SELECT ${COLUMNS} FROM s`;
