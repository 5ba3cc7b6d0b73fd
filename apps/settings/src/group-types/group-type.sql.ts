/** The SQL of group types: the columns every statement answers (alias `t`, also for INSERT/UPDATE ... RETURNING), and the list. */
import { ListSpec, isoSql, raw, sql } from '@ddm/platform';
import type { ListGroupTypesQuery } from './dto/list-group-types.query';

export const GROUP_TYPE_COLUMNS = `t.id, t.tenant_id, t.group_type_name, t.should_allow_enable_disable, t.address_enabled, t.is_default,
  t.disable_option, t.is_deleted, t.status, t.created_by, ${isoSql('t.created_on')} AS created_on, ${isoSql('t.updated_on')} AS updated_on, t.updated_by`;

/** The tenant's live types (ACTIVE or INACTIVE ones with `isActive`), by creation then id. */
export function groupTypeList(tenantId: string, q: ListGroupTypesQuery): ListSpec {
  return {
    from: sql`settings.group_types t`,
    where: [
      sql`t.tenant_id = ${tenantId}`,
      sql`NOT t.is_deleted`,
      ...(q.isActive !== undefined ? [sql`t.status = ${q.isActive ? 'ACTIVE' : 'INACTIVE'}`] : []),
    ],
    id: 't.id',
    sort: { keys: ['t.created_on'], dir: q.sortOrder === 'desc' ? 'DESC' : 'ASC' },
    view: { columns: raw(GROUP_TYPE_COLUMNS), from: sql`settings.group_types t ON t.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
