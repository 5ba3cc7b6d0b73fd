import { Injectable } from '@nestjs/common';
import { Page, SETTINGS_EVENT_SUBJECTS, badRequest, conflict, notFound, selectPage } from '@ddm/contracts';
import { Db, Queryable, SetClause, Tx, listPage, sql } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { DisableOption } from '../core/disable-options';
import { publishGroups } from '../core/group-events.sql';
import { requireLiveGroups } from '../core/live-records.sql';
import { GroupTypeRefs } from '../group-types/group-type-refs';
import { CreateGroupDto, GroupAddressDto, UpdateGroupDto } from './dto/group-change.dto';
import { GroupRow, GroupView, toGroupView } from './dto/group.response';
import { ListGroupsQuery } from './dto/list-groups.query';
import { PositionRefs } from '../positions/position-refs';
import { AddressFields, ChangeProblem, addressProblem, groupUpdateProblem, mergeAddress, randomGroupCode } from './group.rules';
import { GROUP_COLUMNS, GROUP_FROM, groupList } from './group.sql';

/** Tries for a free group code before giving up (36^6 codes: a second try is already rare). */
const CODE_ATTEMPTS = 10;

interface TypeRow {
  id: string;
  group_type_name: string;
  status: string;
  address_enabled: boolean;
}

interface LockedGroup {
  id: string;
  tenant_group_type_id: string;
  address_enabled: boolean;
  address: AddressFields | null;
}

const fieldError = (p: ChangeProblem) => badRequest(p.field ? `${p.field}: ${p.message}` : p.message, p.field ? [{ field: p.field, message: p.message }] : undefined);

@Injectable()
export class GroupsService {
  constructor(
    private readonly db: Db,
    private readonly groupTypes: GroupTypeRefs,
    private readonly positions: PositionRefs,
  ) {}

  /** One statement: the page of matching groups with parents, children and counts, and the total (see group.sql.ts). */
  async list(tenantId: string, q: ListGroupsQuery): Promise<Page<Partial<GroupView>>> {
    return selectPage(await listPage(this.db, groupList(tenantId, q), toGroupView), q.select);
  }

  get(tenantId: string, id: string): Promise<GroupView> {
    return this.view(tenantId, id, false);
  }

  /** The group as answered; a deleted one only right after its deletion. */
  private async view(tenantId: string, id: string, includeDeleted: boolean): Promise<GroupView> {
    const [row] = await this.db.query<GroupRow>(
      `SELECT ${GROUP_COLUMNS} FROM ${GROUP_FROM} WHERE g.id = $1 AND g.tenant_id = $2${includeDeleted ? '' : ' AND NOT g.is_deleted'}`,
      [id, tenantId],
    );
    if (!row) throw notFound(`Group ${id} not found`);
    return toGroupView(row);
  }

  async create(tenantId: string, dto: CreateGroupDto, by: string | null): Promise<GroupView> {
    await this.groupTypes.ensureDefaults(tenantId);
    const id = uuidv7();
    await this.db.transaction(async (tx) => {
      const type = await usableType(tx, tenantId, dto.tenantGroupTypeId);
      const problem = addressProblem({ typeAllowsAddress: type.address_enabled, addressSent: !!dto.address, addressCleared: false, hasAddress: false, typeChanged: false });
      if (problem) throw fieldError(problem);
      const parents = dto.parentGroupIds ?? [];
      await requireLiveGroups(tx, tenantId, parents, { what: 'Parent group', field: 'parentGroupIds', asked: parents });
      await insertGroup(tx, {
        id,
        tenantId,
        typeId: type.id,
        groupName: dto.groupName,
        displayName: dto.displayName ?? null,
        legalName: dto.legalName ?? null,
        status: dto.status ?? 'ACTIVE',
        baseCurrency: dto.baseCurrency ?? null,
        isSynced: dto.isSynced ?? false,
        externalId: dto.externalId ?? null,
        instanceId: dto.instanceId ?? null,
        by,
      });
      if (dto.address) await writeAddress(tx, tenantId, id, mergeAddress(null, dto.address));
      await linkParents(tx, tenantId, id, parents);
      await publishGroups(tx, tenantId, SETTINGS_EVENT_SUBJECTS.groupCreated, [id]);
    });
    return this.get(tenantId, id);
  }

  /**
   * Changes fields, the address and the parents, or deletes the group softly (`isDeleted: true`).
   * Adding parents takes the tenant's hierarchy lock first, so two concurrent changes cannot make a cycle together.
   */
  async update(tenantId: string, id: string, dto: UpdateGroupDto, by: string | null): Promise<GroupView> {
    const problem = groupUpdateProblem(id, dto as Record<string, unknown>);
    if (problem) throw fieldError(problem);
    const deleting = dto.isDeleted === true;
    await this.db.transaction(async (tx) => {
      const adding = dto.addParentGroupIds ?? [];
      if (adding.length) await tx.query(`SELECT pg_advisory_xact_lock(hashtext('settings:hierarchy:' || $1))`, [tenantId]);
      const current = await lockGroup(tx, tenantId, id);
      if (deleting) return this.softDelete(tx, tenantId, id, dto.disableOption ?? 'NA', by);

      const typeChanged = dto.tenantGroupTypeId !== undefined && dto.tenantGroupTypeId !== current.tenant_group_type_id;
      const type = typeChanged ? await usableType(tx, tenantId, dto.tenantGroupTypeId!) : null;
      const addressIssue = addressProblem({
        typeAllowsAddress: type ? type.address_enabled : current.address_enabled,
        addressSent: !!dto.address,
        addressCleared: dto.address === null,
        hasAddress: current.address !== null,
        typeChanged,
      });
      if (addressIssue) throw fieldError(addressIssue);
      if (adding.length) {
        await requireLiveGroups(tx, tenantId, adding, { what: 'Parent group', field: 'addParentGroupIds', asked: adding });
        await refuseCycles(tx, tenantId, id, adding);
      }
      // Removing names groups too: each must be a live group of the tenant (a live group that is not a parent changes nothing).
      const removing = dto.removeParentGroupIds ?? [];
      await requireLiveGroups(tx, tenantId, removing, { what: 'Parent group', field: 'removeParentGroupIds', asked: removing });

      const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${by}`);
      if (typeChanged) sets.set('tenant_group_type_id', type!.id);
      if (dto.groupName !== undefined) sets.set('group_name', dto.groupName);
      if (dto.displayName !== undefined) sets.set('display_name', dto.displayName);
      if (dto.legalName !== undefined) sets.set('legal_name', dto.legalName);
      if (dto.status !== undefined) sets.set('status', dto.status);
      if (dto.baseCurrency !== undefined) sets.set('base_currency', dto.baseCurrency);
      if (dto.isSynced !== undefined) sets.set('is_synced', dto.isSynced);
      if (dto.externalId !== undefined) sets.set('external_id', dto.externalId);
      if (dto.instanceId !== undefined) sets.set('instance_id', dto.instanceId);
      if (dto.disableOption !== undefined) sets.set('disable_option', dto.disableOption);
      await tx.query(sql`UPDATE settings.groups SET ${sets.sql} WHERE id = ${id} AND tenant_id = ${tenantId}`);

      if (dto.address === null) await tx.query(`DELETE FROM settings.group_addresses WHERE group_id = $1`, [id]);
      else if (dto.address) await writeAddress(tx, tenantId, id, mergeAddress(current.address, dto.address as GroupAddressDto));
      if (dto.removeParentGroupIds?.length) {
        await tx.query(`DELETE FROM settings.group_parents WHERE group_id = $1 AND tenant_id = $2 AND parent_id = ANY($3::uuid[])`, [id, tenantId, dto.removeParentGroupIds]);
      }
      await linkParents(tx, tenantId, id, adding);
      await publishGroups(tx, tenantId, SETTINGS_EVENT_SUBJECTS.groupUpdated, [id]);
    });
    return this.view(tenantId, id, deleting);
  }

  /**
   * Soft delete. KEEP_ASSOCIATIONS and NA keep the position and hierarchy links (a deleted group
   * shows in no list, no parentGroups and no childGroups); REMOVE_ASSOCIATIONS removes its positions'
   * links and its parent and child links. Its children's events follow (their parents changed).
   */
  private async softDelete(tx: Tx, tenantId: string, id: string, option: DisableOption, by: string | null): Promise<void> {
    const children = await tx.query<{ group_id: string }>(
      `SELECT l.group_id FROM settings.group_parents l JOIN settings.groups c ON c.id = l.group_id AND NOT c.is_deleted
        WHERE l.parent_id = $1 AND l.tenant_id = $2`,
      [id, tenantId],
    );
    await tx.query(
      `UPDATE settings.groups SET is_deleted = true, disable_option = $3, deleted_on = now(), deleted_by = $4, updated_on = now(), updated_by = $4
        WHERE id = $1 AND tenant_id = $2`,
      [id, tenantId, option, by],
    );
    if (option === 'REMOVE_ASSOCIATIONS') {
      const unlinked = await tx.query<{ position_id: string }>(
        `DELETE FROM settings.position_groups WHERE group_id = $1 AND tenant_id = $2 RETURNING position_id`,
        [id, tenantId],
      );
      await tx.query(`DELETE FROM settings.group_parents WHERE (group_id = $1 OR parent_id = $1) AND tenant_id = $2`, [id, tenantId]);
      // The positions that lost the group changed: their events carry their groups now.
      await this.positions.publish(tx, tenantId, SETTINGS_EVENT_SUBJECTS.positionUpdated, unlinked.map((r) => r.position_id), { live: true });
    }
    await publishGroups(tx, tenantId, SETTINGS_EVENT_SUBJECTS.groupDeleted, [id]);
    await publishGroups(
      tx,
      tenantId,
      SETTINGS_EVENT_SUBJECTS.groupUpdated,
      children.map((c) => c.group_id),
    );
  }
}

/** The type a group may use: the tenant's, not deleted (else 404), ACTIVE (else 409). Locked against a concurrent delete. */
async function usableType(q: Queryable, tenantId: string, typeId: string): Promise<TypeRow> {
  const [type] = await q.query<TypeRow>(
    `SELECT id, group_type_name, status, address_enabled FROM settings.group_types
      WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR SHARE`,
    [typeId, tenantId],
  );
  if (!type) throw notFound(`Group type ${typeId} not found`, [{ field: 'tenantGroupTypeId', message: `Group type ${typeId} not found` }]);
  if (type.status !== 'ACTIVE') throw conflict(`The group type "${type.group_type_name}" is not active`);
  return type;
}

/** The group, locked for the change, with what the change needs of its type and address (404 if not the tenant's or deleted). */
async function lockGroup(q: Queryable, tenantId: string, id: string): Promise<LockedGroup> {
  const [row] = await q.query<LockedGroup & { address_exists: boolean } & Record<string, unknown>>(
    `SELECT g.id, g.tenant_group_type_id, t.address_enabled, a.id IS NOT NULL AS address_exists,
            a.street1, a.street2, a.city, a.state, a.state_code, a.zip_code, a.country, a.country_code
       FROM settings.groups g JOIN settings.group_types t ON t.id = g.tenant_group_type_id
       LEFT JOIN settings.group_addresses a ON a.group_id = g.id
      WHERE g.id = $1 AND g.tenant_id = $2 AND NOT g.is_deleted
        FOR UPDATE OF g`,
    [id, tenantId],
  );
  if (!row) throw notFound(`Group ${id} not found`);
  const address: AddressFields | null = row.address_exists
    ? {
        street1: row.street1 as string | null,
        street2: row.street2 as string | null,
        city: row.city as string | null,
        state: row.state as string | null,
        stateCode: row.state_code as string | null,
        zipCode: row.zip_code as string | null,
        country: row.country as string | null,
        countryCode: row.country_code as string | null,
      }
    : null;
  return { id: row.id, tenant_group_type_id: row.tenant_group_type_id, address_enabled: row.address_enabled, address };
}

/** A parent that is the group's own descendant would make a cycle: 400 naming it. */
async function refuseCycles(q: Queryable, tenantId: string, id: string, parents: readonly string[]): Promise<void> {
  const cycles = await q.query<{ id: string }>(
    `WITH RECURSIVE descendants(id) AS (
       SELECT l.group_id FROM settings.group_parents l JOIN settings.groups c ON c.id = l.group_id AND NOT c.is_deleted
        WHERE l.parent_id = $1 AND l.tenant_id = $2
       UNION
       SELECT l.group_id FROM descendants d JOIN settings.group_parents l ON l.parent_id = d.id
         JOIN settings.groups c ON c.id = l.group_id AND NOT c.is_deleted
     )
     SELECT id FROM descendants WHERE id = ANY($3::uuid[])`,
    [id, tenantId, parents],
  );
  if (cycles.length) {
    const names = cycles.map((c) => c.id).join(', ');
    throw badRequest(`addParentGroupIds: ${names} ${cycles.length === 1 ? 'is a descendant' : 'are descendants'} of the group; the hierarchy would have a cycle`, [
      { field: 'addParentGroupIds', message: `would make a cycle (descendants of the group: ${names})` },
    ]);
  }
}

interface NewGroup {
  id: string;
  tenantId: string;
  typeId: string;
  groupName: string;
  displayName: string | null;
  legalName: string | null;
  status: string;
  baseCurrency: string | null;
  isSynced: boolean;
  externalId: string | null;
  instanceId: string | null;
  by: string | null;
}

/** Inserts the group with a fresh random code; a code the tenant already has is retried (no error, so the transaction lives on). */
async function insertGroup(q: Queryable, g: NewGroup): Promise<void> {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
    const inserted = await q.query(
      `INSERT INTO settings.groups (id, tenant_id, group_code, tenant_group_type_id, group_name, display_name, legal_name, status,
                                    base_currency, is_synced, external_id, instance_id, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
       ON CONFLICT (tenant_id, group_code) DO NOTHING RETURNING id`,
      [g.id, g.tenantId, randomGroupCode(), g.typeId, g.groupName, g.displayName, g.legalName, g.status, g.baseCurrency, g.isSynced, g.externalId, g.instanceId, g.by],
    );
    if (inserted.length) return;
  }
  throw new Error(`no free group code after ${CODE_ATTEMPTS} attempts`);
}

async function writeAddress(q: Queryable, tenantId: string, groupId: string, a: AddressFields): Promise<void> {
  await q.query(
    `INSERT INTO settings.group_addresses (id, tenant_id, group_id, street1, street2, city, state, state_code, zip_code, country, country_code)
     VALUES ($1, $11, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (group_id) DO UPDATE SET street1 = EXCLUDED.street1, street2 = EXCLUDED.street2, city = EXCLUDED.city, state = EXCLUDED.state,
       state_code = EXCLUDED.state_code, zip_code = EXCLUDED.zip_code, country = EXCLUDED.country, country_code = EXCLUDED.country_code, updated_on = now()`,
    [uuidv7(), groupId, a.street1, a.street2, a.city, a.state, a.stateCode, a.zipCode, a.country, a.countryCode, tenantId],
  );
}

/** Links the group to these parents (already linked ones stay as they are). */
async function linkParents(q: Queryable, tenantId: string, groupId: string, parents: readonly string[]): Promise<void> {
  if (!parents.length) return;
  await q.query(
    `INSERT INTO settings.group_parents (id, tenant_id, group_id, parent_id)
     SELECT x.id, $1, $2, x.parent_id FROM unnest($3::uuid[], $4::uuid[]) WITH ORDINALITY AS x(id, parent_id, n) ORDER BY x.n
     ON CONFLICT (group_id, parent_id) DO NOTHING`,
    [tenantId, groupId, parents.map(() => uuidv7()), parents],
  );
}
