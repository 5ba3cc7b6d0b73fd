/** The SQL of decision roles shared by their statements. */

/** The columns a view is built from (one list of them, used by every statement). */
export const DECISION_ROLE_COLUMNS = 'd.id, d.tenant_id, d.role_name, d.is_deleted, d.status';
