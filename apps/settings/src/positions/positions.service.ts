import { Injectable } from '@nestjs/common';
import { Page, PositionEvent, SETTINGS_EVENT_SUBJECTS, badRequest, missingIds, missingIdsError, notFound } from '@ddm/contracts';
import { Db, Queryable, SetClause, TenantUniqueName, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { requireLiveGroups } from '../core/live-records.sql';
import { ListPositionsQuery } from './dto/list-positions.query';
import { BulkStatusDto, CreatePositionDto, DeletePositionsDto, POSITION_UPDATE_FIELDS, UpdatePositionDto } from './dto/position-change.dto';
import { BulkStatusResult, PositionListRow, PositionRow, PositionView, toPositionPayload, toPositionView } from './dto/position.response';
import { PositionRefs } from './position-refs';
import { uniqueIds } from './position.rules';
import { POSITION_BY_ID_SQL, positionListSql, toPositionPage } from './position.sql';

/**
 * Positions of a tenant: the list and get (one statement each, see position.sql.ts), create,
 * update, bulk status and bulk delete. Every change publishes evt.settings.position.* through
 * the outbox in its transaction.
 */
@Injectable()
export class PositionsService {
  constructor(
    private readonly db: Db,
    private readonly positions: PositionRefs,
  ) {}

  async list(tenantId: string, q: ListPositionsQuery): Promise<Page<Partial<PositionView>>> {
    const { items, total } = toPositionPage(await this.db.query<PositionListRow>(positionListSql(tenantId, q)), q);
    return new Page(items, total, q.page, q.limit);
  }

  async get(tenantId: string, id: string): Promise<PositionView> {
    const [row] = await this.db.query<PositionRow>(POSITION_BY_ID_SQL, [id, tenantId]);
    if (!row) throw notFound(`Position ${id} not found`);
    return toPositionView(row);
  }

  async create(tenantId: string, dto: CreatePositionDto, by: string | null): Promise<PositionView> {
    const id = uuidv7();
    const groupIds = uniqueIds(dto.groupIds ?? []);
    return this.db.transaction(async (tx) => {
      await requireLiveGroups(tx, tenantId, groupIds, { what: 'Group', field: 'groupIds', asked: dto.groupIds ?? [] });
      await refuseTakenName(tx, POSITION_NAME, tenantId, dto.positionName, null);
      const displayId = await tx.nextDisplayId(tenantId, 'position');
      await writeUniqueName(POSITION_NAME, dto.positionName, () =>
        tx.query(
          `INSERT INTO settings.positions (id, tenant_id, position_display_id, position_name, status, is_scim_provisioned, external_id, instance_id, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
          [id, tenantId, displayId, dto.positionName, dto.status ?? 'ACTIVE', dto.isSCIMProvisioned ?? false, dto.externalId ?? null, dto.instanceId ?? null, by],
        ),
      );
      await linkGroups(tx, tenantId, id, groupIds);
      const view = await readView(tx, tenantId, id);
      const event: PositionEvent = { tenantId, position: toPositionPayload(view) };
      await tx.publish(SETTINGS_EVENT_SUBJECTS.positionCreated, event);
      return view;
    });
  }

  /** Changes the fields given; `groupIds` replaces the set (links kept keep their createdAt). */
  async update(tenantId: string, id: string, dto: UpdatePositionDto, by: string | null): Promise<PositionView> {
    if (!POSITION_UPDATE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${POSITION_UPDATE_FIELDS.join(', ')}`);
    return this.db.transaction(async (tx) => {
      const [current] = await tx.query(`SELECT id FROM settings.positions WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`, [id, tenantId]);
      if (!current) throw notFound(`Position ${id} not found`);
      if (dto.positionName !== undefined) await refuseTakenName(tx, POSITION_NAME, tenantId, dto.positionName, id);
      const groupIds = dto.groupIds ? uniqueIds(dto.groupIds) : null;
      if (groupIds) await requireLiveGroups(tx, tenantId, groupIds, { what: 'Group', field: 'groupIds', asked: dto.groupIds! });

      const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${by}`);
      if (dto.positionName !== undefined) sets.set('position_name', dto.positionName);
      if (dto.status !== undefined) sets.set('status', dto.status);
      if (dto.isSCIMProvisioned !== undefined) sets.set('is_scim_provisioned', dto.isSCIMProvisioned);
      await writeUniqueName(POSITION_NAME, dto.positionName ?? '', () =>
        tx.query(sql`UPDATE settings.positions SET ${sets.sql} WHERE id = ${id} AND tenant_id = ${tenantId}`),
      );
      if (groupIds) {
        await tx.query(`DELETE FROM settings.position_groups WHERE position_id = $1 AND NOT (group_id = ANY($2::uuid[]))`, [id, groupIds]);
        await linkGroups(tx, tenantId, id, groupIds);
      }
      const view = await readView(tx, tenantId, id);
      const event: PositionEvent = { tenantId, position: toPositionPayload(view) };
      await tx.publish(SETTINGS_EVENT_SUBJECTS.positionUpdated, event);
      return view;
    });
  }

  /**
   * Sets the status of the positions named, all or nothing: an id unknown, deleted or another
   * tenant's is a 404 naming it and nothing changes. `successful` counts the positions named,
   * whether or not their status changed. Only positions whose status changed are written and
   * announced (one outbox statement).
   */
  async bulkStatus(tenantId: string, dto: BulkStatusDto, by: string | null): Promise<BulkStatusResult> {
    const ids = uniqueIds(dto.ids);
    return this.db.transaction(async (tx) => {
      const live = await tx.query<{ id: string }>(
        `SELECT id FROM settings.positions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted ORDER BY id FOR UPDATE`,
        [tenantId, ids],
      );
      const absent = missingIds(ids, live.map((r) => r.id));
      if (absent.length) throw missingIdsError({ what: 'Position', field: 'ids', asked: dto.ids, missing: absent, suffix: '; nothing was changed' });
      const [r] = await tx.query<{ found: number; changed: string[] }>(
        `WITH found AS (SELECT id FROM settings.positions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted ORDER BY id FOR UPDATE),
              changed AS (
                UPDATE settings.positions p SET status = $3, updated_on = now(), updated_by = $4
                  FROM found WHERE p.id = found.id AND p.status <> $3
                RETURNING p.id)
         SELECT (SELECT count(*)::int FROM found) AS found, (SELECT coalesce(array_agg(c.id::text ORDER BY c.id), '{}') FROM changed c) AS changed`,
        [tenantId, ids, dto.status, by],
      );
      // The changed positions as their events carry them (the one mapper of a position's payload).
      await this.positions.publish(tx, tenantId, SETTINGS_EVENT_SUBJECTS.positionUpdated, r.changed);
      return { total: ids.length, successful: r.found, failed: ids.length - r.found };
    });
  }

  /**
   * Deletes (softly) every position named, or none: if any id is unknown, already deleted or
   * another tenant's, the answer is a 404 naming them and nothing changes. Answers the positions
   * as they were, with isDeleted true.
   */
  async remove(tenantId: string, dto: DeletePositionsDto, by: string | null): Promise<PositionView[]> {
    const ids = uniqueIds(dto.ids);
    return this.db.transaction(async (tx) => {
      const found = await tx.query<{ id: string }>(
        `SELECT id FROM settings.positions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted ORDER BY id FOR UPDATE`,
        [tenantId, ids],
      );
      const absent = missingIds(ids, found.map((r) => r.id));
      if (absent.length) throw missingIdsError({ what: 'Position', field: 'ids', asked: dto.ids, missing: absent, suffix: '; nothing was deleted' });
      await tx.query(
        `UPDATE settings.positions SET is_deleted = true, deleted_on = now(), deleted_by = $3, updated_on = now(), updated_by = $3
          WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
        [tenantId, ids, by],
      );
      const rows = await this.positions.publish(tx, tenantId, SETTINGS_EVENT_SUBJECTS.positionDeleted, ids);
      return rows.map(toPositionView);
    });
  }
}

async function readView(q: Queryable, tenantId: string, id: string): Promise<PositionView> {
  const [row] = await q.query<PositionRow>(POSITION_BY_ID_SQL, [id, tenantId]);
  return toPositionView(row);
}

/** Links the groups not linked yet (one statement); existing links keep their timestamps. */
async function linkGroups(q: Queryable, tenantId: string, positionId: string, groupIds: readonly string[]): Promise<void> {
  if (!groupIds.length) return;
  await q.query(
    `INSERT INTO settings.position_groups (position_id, group_id, tenant_id)
     SELECT $1, g, $2 FROM unnest($3::uuid[]) AS g ON CONFLICT (position_id, group_id) DO NOTHING`,
    [positionId, tenantId, groupIds],
  );
}

/** Position names are unique in the tenant among positions not deleted (a check, backed by the index against races). */
const POSITION_NAME: TenantUniqueName = {
  table: 'settings.positions',
  column: 'position_name',
  index: 'positions_name_unique',
  taken: (name) => `A position named "${name}" already exists in this tenant`,
};
