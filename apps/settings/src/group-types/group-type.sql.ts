/** The SQL of group types shared by their statements. */

/** Columns of a group type as answered (alias `t`). */
export const GROUP_TYPE_COLUMNS = `t.id, t.tenant_id, t.group_type_name, t.should_allow_enable_disable, t.address_enabled, t.is_default,
  t.disable_option, t.is_deleted, t.status, t.created_by, t.created_on, t.updated_on, t.updated_by`;

/** The same columns for RETURNING (no alias). */
export const GROUP_TYPE_RETURNING = GROUP_TYPE_COLUMNS.replace(/\bt\./g, '');
