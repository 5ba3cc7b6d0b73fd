import { Injectable } from '@nestjs/common';
import { Page, SETTINGS_EVENT_SUBJECTS, badRequest, conflict, notFound, selectPage } from '@ddm/contracts';
import { Db, Queryable, SetClause, TenantUniqueName, listPage, raw, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { publishGroupsWhere } from '../core/group-events.sql';
import { CreateGroupTypeDto, UpdateGroupTypeDto } from './dto/group-type-change.dto';
import { GROUP_TYPE_COLUMNS, groupTypeList } from './group-type.sql';
import { GroupTypeRow, GroupTypeView, toGroupTypePayload, toGroupTypeView } from './dto/group-type.response';
import { ListGroupTypesQuery } from './dto/list-group-types.query';
import { GroupTypeRefs } from './group-type-refs';
import { GROUP_TYPE_UPDATE_FIELDS, groupTypeChangeProblem, groupTypeDeleteProblem } from './group-type.rules';

@Injectable()
export class GroupTypesService {
  constructor(
    private readonly db: Db,
    private readonly defaults: GroupTypeRefs,
  ) {}

  async list(tenantId: string, q: ListGroupTypesQuery): Promise<Page<Partial<GroupTypeView>>> {
    await this.defaults.ensureDefaults(tenantId);
    return selectPage(await listPage(this.db, groupTypeList(tenantId, q), toGroupTypeView), q.select);
  }

  async create(tenantId: string, dto: CreateGroupTypeDto, by: string | null): Promise<GroupTypeView> {
    await this.defaults.ensureDefaults(tenantId);
    const row = await this.db.transaction(async (tx) => {
      await refuseTakenName(tx, GROUP_TYPE_NAME, tenantId, dto.groupTypeName, null);
      const [created] = await writeUniqueName(GROUP_TYPE_NAME, dto.groupTypeName, () =>
        tx.query<GroupTypeRow>(
          `INSERT INTO settings.group_types AS t (id, tenant_id, group_type_name, address_enabled, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${GROUP_TYPE_COLUMNS}`,
          [uuidv7(), tenantId, dto.groupTypeName, dto.addressEnabled ?? false, by],
        ),
      );
      await tx.publish(SETTINGS_EVENT_SUBJECTS.groupTypeCreated, { tenantId, groupType: toGroupTypePayload(created) });
      return created;
    });
    return toGroupTypeView(row);
  }

  /**
   * Renames, (de)activates, sets the disable option or the address flag. A rename republishes the
   * type's groups (their events carry the type's name, which other areas project).
   */
  async update(tenantId: string, id: string, dto: UpdateGroupTypeDto, by: string | null): Promise<GroupTypeView> {
    if (!GROUP_TYPE_UPDATE_FIELDS.some((f) => dto[f] !== undefined)) {
      throw badRequest(`Nothing to change: send at least one of ${GROUP_TYPE_UPDATE_FIELDS.join(', ')}`);
    }
    const row = await this.db.transaction(async (tx) => {
      const current = await lockType(tx, tenantId, id);
      const problem = groupTypeChangeProblem(stateOf(current), dto);
      if (problem) throw conflict(problem);
      const renamed = dto.groupTypeName !== undefined && dto.groupTypeName !== current.group_type_name;
      if (renamed) await refuseTakenName(tx, GROUP_TYPE_NAME, tenantId, dto.groupTypeName!, id);

      const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${by}`);
      if (dto.groupTypeName !== undefined) sets.set('group_type_name', dto.groupTypeName);
      if (dto.status !== undefined) sets.set('status', dto.status);
      if (dto.disableOption !== undefined) sets.set('disable_option', dto.disableOption);
      if (dto.addressEnabled !== undefined) sets.set('address_enabled', dto.addressEnabled);
      const [updated] = await writeUniqueName(GROUP_TYPE_NAME, dto.groupTypeName ?? current.group_type_name, () =>
        tx.query<GroupTypeRow>(sql`UPDATE settings.group_types t SET ${sets.sql} WHERE t.id = ${id} AND t.tenant_id = ${tenantId} RETURNING ${raw(GROUP_TYPE_COLUMNS)}`),
      );
      await tx.publish(SETTINGS_EVENT_SUBJECTS.groupTypeUpdated, { tenantId, groupType: toGroupTypePayload(updated) });
      // The type's groups carry its name in their events.
      if (renamed) await publishGroupsWhere(tx, tenantId, SETTINGS_EVENT_SUBJECTS.groupUpdated, sql`g.tenant_group_type_id = ${id}`);
      return updated;
    });
    return toGroupTypeView(row);
  }

  /** Soft delete; refused (409) for the default types and while groups that are not deleted use the type. */
  async remove(tenantId: string, id: string, by: string | null): Promise<GroupTypeView> {
    const row = await this.db.transaction(async (tx) => {
      const current = await lockType(tx, tenantId, id);
      const [{ n }] = await tx.query<{ n: string }>(
        `SELECT count(*) AS n FROM settings.groups WHERE tenant_group_type_id = $1 AND tenant_id = $2 AND NOT is_deleted`,
        [id, tenantId],
      );
      const problem = groupTypeDeleteProblem(stateOf(current), Number(n));
      if (problem) throw conflict(problem);
      const [deleted] = await tx.query<GroupTypeRow>(
        `UPDATE settings.group_types t SET is_deleted = true, deleted_on = now(), deleted_by = $3, updated_on = now(), updated_by = $3
          WHERE t.id = $1 AND t.tenant_id = $2 RETURNING ${GROUP_TYPE_COLUMNS}`,
        [id, tenantId, by],
      );
      await tx.publish(SETTINGS_EVENT_SUBJECTS.groupTypeDeleted, { tenantId, groupType: toGroupTypePayload(deleted) });
      return deleted;
    });
    return toGroupTypeView(row);
  }
}

function stateOf(r: GroupTypeRow) {
  return { groupTypeName: r.group_type_name, status: r.status, isDefault: r.is_default, shouldAllowEnableDisable: r.should_allow_enable_disable };
}

/** The tenant's type, locked for the change (another tenant's or a deleted one is a 404). */
async function lockType(q: Queryable, tenantId: string, id: string): Promise<GroupTypeRow> {
  const [row] = await q.query<GroupTypeRow>(
    `SELECT ${GROUP_TYPE_COLUMNS} FROM settings.group_types t WHERE t.id = $1 AND t.tenant_id = $2 AND NOT t.is_deleted FOR UPDATE`,
    [id, tenantId],
  );
  if (!row) throw notFound(`Group type ${id} not found`);
  return row;
}

/** Group type names are unique in the tenant among types not deleted (a check, backed by the index against races with the same 409). */
const GROUP_TYPE_NAME: TenantUniqueName = {
  table: 'settings.group_types',
  column: 'group_type_name',
  index: 'group_types_name',
  taken: (name) => `A group type named "${name}" already exists in this tenant`,
};
