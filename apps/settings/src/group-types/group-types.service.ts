import { Injectable } from '@nestjs/common';
import { Page, SETTINGS_EVENT_SUBJECTS, badRequest, conflict, notFound, pageOffset } from '@ddm/contracts';
import { Db, SetClause, TenantUniqueName, addManyToOutbox, refuseTakenName, writeUniqueName } from '@ddm/platform';
import { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { groupPayloads } from '../groups/group.sql';
import { CreateGroupTypeDto, UpdateGroupTypeDto } from './dto/group-type-change.dto';
import { GROUP_TYPE_COLUMNS, GROUP_TYPE_RETURNING } from './group-type.sql';
import { GroupTypeRow, GroupTypeView, toGroupTypePayload, toGroupTypeView } from './dto/group-type.response';
import { ListGroupTypesQuery } from './dto/list-group-types.query';
import { DEFAULT_GROUP_TYPES, GROUP_TYPE_UPDATE_FIELDS, groupTypeChangeProblem, groupTypeDeleteProblem } from './group-type.rules';

type PublishMany = (subject: string, payloads: object[]) => Promise<void>;

@Injectable()
export class GroupTypesService {
  /** Tenants whose default types this process has made sure of: after the first time, it costs nothing. */
  private readonly defaultsEnsured = new Set<string>();

  constructor(private readonly db: Db) {}

  /**
   * Makes sure the tenant has Organizations, Locations and Departments (idempotent). Called lazily
   * before group-type lists and creates and group creates, as a backstop of the tenant-created consumer.
   */
  async ensureDefaults(tenantId: string): Promise<void> {
    if (this.defaultsEnsured.has(tenantId)) return;
    await this.db.transaction((tx) => this.insertDefaults(tx.manager, tenantId, (subject, payloads) => tx.publishMany(subject, payloads)));
    // Bounded: past 10,000 tenants the memory starts over (the insert is idempotent anyway).
    if (this.defaultsEnsured.size >= 10_000) this.defaultsEnsured.clear();
    this.defaultsEnsured.add(tenantId);
  }

  /** The consumer's way in: the defaults in the transaction that records the message (events through the same outbox). */
  insertDefaultsIn(manager: EntityManager, tenantId: string): Promise<void> {
    return this.insertDefaults(manager, tenantId, async (subject, payloads) => {
      await addManyToOutbox(manager, this.db.schema, subject, payloads);
    });
  }

  /** Inserts the default types the tenant lacks; publishes `created` only for the rows actually inserted. */
  private async insertDefaults(manager: EntityManager, tenantId: string, publishMany: PublishMany): Promise<void> {
    // No conflict target: a default already there (tenant_id, system_key) or a clashing name is skipped, never an error.
    const rows: GroupTypeRow[] = await manager.query(
      `INSERT INTO settings.group_types (id, tenant_id, group_type_name, system_key, is_default, should_allow_enable_disable, address_enabled)
       SELECT x.id, $1, x.name, x.key, true, x.allow, x.address
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::boolean[], $6::boolean[]) WITH ORDINALITY AS x(id, name, key, allow, address, n)
        ORDER BY x.n
       ON CONFLICT DO NOTHING
       RETURNING ${GROUP_TYPE_RETURNING}`,
      [
        tenantId,
        DEFAULT_GROUP_TYPES.map(() => uuidv7()),
        DEFAULT_GROUP_TYPES.map((d) => d.groupTypeName),
        DEFAULT_GROUP_TYPES.map((d) => d.systemKey),
        DEFAULT_GROUP_TYPES.map((d) => d.shouldAllowEnableDisable),
        DEFAULT_GROUP_TYPES.map((d) => d.addressEnabled),
      ],
    );
    await publishMany(
      SETTINGS_EVENT_SUBJECTS.groupTypeCreated,
      rows.map((r) => ({ tenantId, groupType: toGroupTypePayload(r) })),
    );
  }

  async list(tenantId: string, q: ListGroupTypesQuery): Promise<Page<GroupTypeView>> {
    await this.ensureDefaults(tenantId);
    const where = ['t.tenant_id = $1', 'NOT t.is_deleted'];
    const params: unknown[] = [tenantId];
    if (q.isActive !== undefined) {
      params.push(q.isActive ? 'ACTIVE' : 'INACTIVE');
      where.push(`t.status = $${params.length}`);
    }
    const dir = q.sortOrder === 'desc' ? 'DESC' : 'ASC';
    params.push(q.limit, pageOffset(q));
    const rows = await this.db.query<GroupTypeRow & { total: string }>(
      `WITH matching AS (SELECT t.id, t.created_on FROM settings.group_types t WHERE ${where.join(' AND ')}),
            page AS (SELECT m.id FROM matching m ORDER BY m.created_on ${dir}, m.id ${dir} LIMIT $${params.length - 1} OFFSET $${params.length})
       SELECT ${GROUP_TYPE_COLUMNS}, tot.total
         FROM (SELECT count(*) AS total FROM matching) tot
         LEFT JOIN (page p JOIN settings.group_types t ON t.id = p.id) ON true
        ORDER BY t.created_on ${dir}, t.id ${dir}`,
      params,
    );
    const items = rows.filter((r) => r.id !== null).map(toGroupTypeView);
    return new Page(items, Number(rows[0]?.total ?? 0), q.page, q.limit);
  }

  async create(tenantId: string, dto: CreateGroupTypeDto, by: string | null): Promise<GroupTypeView> {
    await this.ensureDefaults(tenantId);
    const row = await this.db.transaction(async (tx) => {
      await refuseTakenName(tx.manager, GROUP_TYPE_NAME, tenantId, dto.groupTypeName, null);
      const [created]: GroupTypeRow[] = await writeUniqueName(GROUP_TYPE_NAME, dto.groupTypeName, () =>
        tx.manager.query(
          `INSERT INTO settings.group_types (id, tenant_id, group_type_name, address_enabled, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${GROUP_TYPE_RETURNING}`,
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
      const current = await lockType(tx.manager, tenantId, id);
      const problem = groupTypeChangeProblem(stateOf(current), dto);
      if (problem) throw conflict(problem);
      const renamed = dto.groupTypeName !== undefined && dto.groupTypeName !== current.group_type_name;
      if (renamed) await refuseTakenName(tx.manager, GROUP_TYPE_NAME, tenantId, dto.groupTypeName!, id);

      const sets = new SetClause([id, tenantId, by], ['updated_on = now()', 'updated_by = $3']);
      if (dto.groupTypeName !== undefined) sets.set('group_type_name', dto.groupTypeName);
      if (dto.status !== undefined) sets.set('status', dto.status);
      if (dto.disableOption !== undefined) sets.set('disable_option', dto.disableOption);
      if (dto.addressEnabled !== undefined) sets.set('address_enabled', dto.addressEnabled);
      const [updated] = await writeUniqueName(GROUP_TYPE_NAME, dto.groupTypeName ?? current.group_type_name, () =>
        tx.query<GroupTypeRow>(`UPDATE settings.group_types SET ${sets.sql} WHERE id = $1 AND tenant_id = $2 RETURNING ${GROUP_TYPE_RETURNING}`, sets.params),
      );
      await tx.publish(SETTINGS_EVENT_SUBJECTS.groupTypeUpdated, { tenantId, groupType: toGroupTypePayload(updated) });
      if (renamed) {
        const groups = await groupPayloads(tx.manager, tenantId, 'g.tenant_group_type_id = $2', [id]);
        await tx.publishMany(SETTINGS_EVENT_SUBJECTS.groupUpdated, groups.map((group) => ({ tenantId, group })));
      }
      return updated;
    });
    return toGroupTypeView(row);
  }

  /** Soft delete; refused (409) for the default types and while groups that are not deleted use the type. */
  async remove(tenantId: string, id: string, by: string | null): Promise<GroupTypeView> {
    const row = await this.db.transaction(async (tx) => {
      const current = await lockType(tx.manager, tenantId, id);
      const [{ n }]: { n: string }[] = await tx.manager.query(
        `SELECT count(*) AS n FROM settings.groups WHERE tenant_group_type_id = $1 AND tenant_id = $2 AND NOT is_deleted`,
        [id, tenantId],
      );
      const problem = groupTypeDeleteProblem(stateOf(current), Number(n));
      if (problem) throw conflict(problem);
      const [deleted] = await tx.query<GroupTypeRow>(
        `UPDATE settings.group_types SET is_deleted = true, deleted_on = now(), deleted_by = $3, updated_on = now(), updated_by = $3
          WHERE id = $1 AND tenant_id = $2 RETURNING ${GROUP_TYPE_RETURNING}`,
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
async function lockType(m: EntityManager, tenantId: string, id: string): Promise<GroupTypeRow> {
  const [row]: GroupTypeRow[] = await m.query(
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
