/** The SQL of a tenant's action configuration: the defaults, inserted once (set-based, idempotent), and the three lists. */

export const INSERT_DEFAULT_STATUSES_SQL = `INSERT INTO actions.action_statuses (id, tenant_id, status_key, action_status_name, position)
  SELECT x.id, $1, x.k, x.name, x.pos FROM unnest($2::uuid[], $3::text[], $4::text[], $5::int[]) AS x(id, k, name, pos)
  ON CONFLICT DO NOTHING`;

export const INSERT_DEFAULT_PRIORITIES_SQL = `INSERT INTO actions.action_priorities (id, tenant_id, priority_key, action_priority_name, color_name, position)
  SELECT x.id, $1, x.k, x.name, x.color, x.pos FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[]) AS x(id, k, name, color, pos)
  ON CONFLICT DO NOTHING`;

export const INSERT_DEFAULT_TYPES_SQL = `INSERT INTO actions.action_types (id, tenant_id, type, name, type_icon, position)
  SELECT x.id, $1, x.t, x.name, x.icon, x.pos FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[]) AS x(id, t, name, icon, pos)
  ON CONFLICT DO NOTHING`;

export const STATUSES_SQL = `SELECT id, tenant_id, status_key, action_status_name, is_enabled FROM actions.action_statuses WHERE tenant_id = $1 ORDER BY position, id`;
export const PRIORITIES_SQL = `SELECT id, tenant_id, priority_key, action_priority_name, color_name, is_enabled FROM actions.action_priorities WHERE tenant_id = $1 ORDER BY position, id`;
export const TYPES_SQL = `SELECT id, tenant_id, type, name, type_icon, status, is_custom FROM actions.action_types WHERE tenant_id = $1 ORDER BY position, id`;
