/** The SQL of tenants: the columns a tenant is answered with, and the reads. */
import { isoSql as iso } from '@ddm/platform';

const TENANT_COLUMNS = `t.id, t.name, t.status, ${iso('t.created_on')} AS created_on, ${iso('t.updated_on')} AS updated_on`;

/** $1 = tenant id. */
export const TENANT_BY_ID_SQL = `SELECT ${TENANT_COLUMNS} FROM auth.tenants t WHERE t.id = $1`;

/** The active tenants where user $1 is a member (ACTIVE) or invited (INVITED), with the membership and whether it is the active tenant. */
export const USER_TENANTS_SQL = `
  SELECT ${TENANT_COLUMNS}, tu.user_display_id, tu.status AS user_status, (u.active_tenant_id IS NOT DISTINCT FROM t.id) AS is_active
    FROM auth.tenant_users tu
    JOIN auth.tenants t ON t.id = tu.tenant_id
    JOIN auth.users u ON u.id = tu.user_id
   WHERE tu.user_id = $1 AND NOT tu.is_deleted AND tu.status IN ('ACTIVE', 'INVITED') AND t.status = 'ACTIVE'
   ORDER BY lower(t.name), t.id`;
