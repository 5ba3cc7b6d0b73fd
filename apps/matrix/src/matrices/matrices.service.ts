import { Inject, Injectable } from '@nestjs/common';
import { Caller, Page, badRequest, capErrors, notFound, requireAllowed } from '@ddm/contracts';
import { Db, Queryable, SERVICE_CONFIG, ServiceConfig, Tx, join, listPage, raw, sql } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { matrixAudience } from '../core/audience';
import { visibleTo } from '../core/matrix.sql';
import { MATRIX_STATUSES, statusById } from '../core/matrix-status.rules';
import { hashPassword, newShareToken } from '../core/share-password';
import { BulkReassignOwnerDto, MATRIX_PATCH_FIELDS, MatrixChangeDto, MatrixFieldsDto, MatrixPatchDto, SaveViewDto } from './dto/matrix-change.dto';
import {
  BulkReassignView,
  Links,
  MATRIX_PERMISSION_RULES,
  MatrixRow,
  MatrixStatusCountsView,
  MatrixUserViewView,
  MatrixView,
  toMatrixView,
} from './dto/matrix.response';
import { MatrixFiltersDto, MatrixSearchDto } from './dto/search.dto';
import { StoredMatrix, matrixRefs, patchedBody, pick, refIdsByKind, selectFields, storedBody, unknownRefs, unknownSelectFields } from './matrix.rules';
import { STORED_COLUMNS, liveRefs, matrixById, matrixSearch, matrixSeen, statusCounts } from './matrix.sql';

const rule = (key: string) => MATRIX_PERMISSION_RULES.find((r) => r.key === key)!;

/** A matrix as stored, locked for a change. */
interface LockedMatrix extends StoredMatrix {
  id: string;
  ext_token: string | null;
  ext_password_hash: string | null;
}

interface ViewRow {
  id: string;
  matrix_id: string;
  user_id: string;
  view_data: Record<string, unknown>;
  created_on: string;
  updated_on: string;
}

const VIEW_COLUMNS = `id, matrix_id, user_id, view_data, to_char(created_on AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_on,
  to_char(updated_on AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_on`;

const toUserView = (r: ViewRow): MatrixUserViewView => ({
  id: r.id,
  matrixId: r.matrix_id,
  userId: r.user_id,
  viewData: r.view_data,
  createdOn: r.created_on,
  updatedOn: r.updated_on,
});

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

@Injectable()
export class MatricesService {
  constructor(
    private readonly db: Db,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  get links(): Links {
    return { appUrl: this.config.appUrl, shareUrl: `${this.config.appUrl}/matrix/v1/shared` };
  }

  statuses() {
    return MATRIX_STATUSES.map((s) => ({ ...s }));
  }

  async search(caller: Caller, q: MatrixSearchDto): Promise<Page<Partial<MatrixView>>> {
    if (q.select) {
      const unknown = unknownSelectFields(q.select);
      if (unknown.length) throw badRequest(`select: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`, [{ field: 'select', message: `unknown: ${unknown.join(', ')}` }]);
    }
    const fields = selectFields(q.select);
    const a = await matrixAudience(this.db, caller);
    return listPage<MatrixRow, Partial<MatrixView>>(this.db, matrixSearch(a, q), (r) => pick(toMatrixView(r, caller, this.links), fields));
  }

  async statusCounts(caller: Caller, q: MatrixFiltersDto): Promise<MatrixStatusCountsView> {
    const a = await matrixAudience(this.db, caller);
    const [row] = await this.db.query<MatrixStatusCountsView>(statusCounts(a, q));
    return row;
  }

  async get(caller: Caller, id: string, q: Queryable = this.db): Promise<MatrixView> {
    const a = await matrixAudience(q, caller);
    const [row] = await q.query<MatrixRow>(matrixById(a, id));
    if (!row) throw notFound(`Matrix ${id} not found`);
    return toMatrixView(row, caller, this.links);
  }

  /** Owned by `ownerId` (a member of the tenant; default the caller). */
  async create(caller: Caller, dto: MatrixChangeDto): Promise<MatrixView> {
    const status = requireStatus(dto.matrixStatusId);
    const id = uuidv7();
    await this.db.transaction(async (tx) => {
      await requireRefs(tx, caller.tenantId, dto);
      const ext = await externalColumns(dto, null);
      const displayId = await tx.nextDisplayId(caller.tenantId, 'matrix');
      await tx.query(sql`INSERT INTO matrix.matrices (id, tenant_id, matrix_display_id, matrix_name, owner_id, sharing_id, sharing_type, status_name, created_by, updated_by)
        VALUES (${id}, ${caller.tenantId}, ${displayId}, ${dto.matrixName}, ${dto.ownerId ?? caller.userId}, ${uuidv7()}, 'PRIVATE', ${status}, ${caller.userId}, ${caller.userId})`);
      await writeChange(tx, caller.tenantId, id, dto, status, ext, caller.userId);
      await publishMatrices(tx, caller.tenantId, [id], 'evt.matrix.matrix.created');
    });
    return this.get(caller, id);
  }

  /** PUT: a full update (what is left out takes its default; the owner is kept when left out). */
  update(caller: Caller, id: string, dto: MatrixChangeDto): Promise<MatrixView> {
    return this.change(caller, id, dto, () => dto);
  }

  /** PATCH: only the fields named change (an object field is replaced whole). */
  patch(caller: Caller, id: string, dto: MatrixPatchDto): Promise<MatrixView> {
    if (!MATRIX_PATCH_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${MATRIX_PATCH_FIELDS.join(', ')}`);
    return this.change(caller, id, dto, (current) => patchedBody(storedBody(current), dto));
  }

  /**
   * A change of a matrix, by PUT or PATCH: the owner or a holder of edit:matrices; changing who it is
   * shared with also needs share:matrices, changing its owner change_owner:matrices (or being the
   * owner). The ids the request names are checked (404 naming the field) before anything is written;
   * `body` is the whole matrix after the change.
   */
  private async change(caller: Caller, id: string, sent: MatrixFieldsDto, body: (current: StoredMatrix) => MatrixChangeDto): Promise<MatrixView> {
    if (sent.matrixStatusId !== undefined) requireStatus(sent.matrixStatusId);
    return this.db.transaction(async (tx) => {
      const current = await this.lockVisible(tx, caller, id);
      const relationships = current.owner_id === caller.userId ? (['owner'] as const) : [];
      requireAllowed(caller, rule('edit:matrices'), relationships);
      const next = body(current);
      const sharing = next.matrixSharing;
      const sharingChanged =
        (sharing?.type ?? 'PRIVATE') !== current.sharing_type ||
        !sameSet(sharing?.userIds ?? [], current.shared_user_ids) ||
        !sameSet(sharing?.groupIds ?? [], current.shared_group_ids) ||
        (next.matrixExternalSharing?.isEnabled ?? false) !== current.ext_enabled;
      if (sharingChanged) requireAllowed(caller, rule('share:matrices'), relationships);
      const ownerId = next.ownerId?.toLowerCase() ?? current.owner_id;
      if (ownerId !== current.owner_id) requireAllowed(caller, rule('change_owner:matrices'), relationships);
      // Where the matrix was copied from stays as it is even when that matrix is gone since.
      const copied = sent.copiedFromMatrix?.toLowerCase() === current.copied_from ? { ...sent, copiedFromMatrix: undefined } : sent;
      await requireRefs(tx, caller.tenantId, copied);
      const ext = await externalColumns(next, current);
      await tx.query(sql`UPDATE matrix.matrices SET matrix_name = ${next.matrixName}, owner_id = ${ownerId} WHERE id = ${id} AND tenant_id = ${caller.tenantId}`);
      await writeChange(tx, caller.tenantId, id, next, requireStatus(next.matrixStatusId), ext, caller.userId);
      await publishMatrices(tx, caller.tenantId, [id], 'evt.matrix.matrix.updated');
      // Read as changed, also when the caller handed it to an owner and no longer sees it.
      const [row] = await tx.query<MatrixRow>(matrixById({ tenantId: caller.tenantId, userId: caller.userId, groupIds: [], all: true }, id));
      return toMatrixView(row, caller, this.links);
    });
  }

  async remove(caller: Caller, id: string): Promise<MatrixView> {
    return this.db.transaction(async (tx) => {
      const current = await this.lockVisible(tx, caller, id);
      requireAllowed(caller, rule('edit:matrices'), current.owner_id === caller.userId ? ['owner'] : []);
      const view = await this.get(caller, id, tx);
      await tx.query(sql`UPDATE matrix.matrices SET is_deleted = true, deleted_on = now(), deleted_by = ${caller.userId}, updated_on = now(), updated_by = ${caller.userId},
          ext_enabled = false, ext_token = NULL
        WHERE id = ${id} AND tenant_id = ${caller.tenantId}`);
      await publishMatrices(tx, caller.tenantId, [id], 'evt.matrix.matrix.deleted');
      return view;
    });
  }

  async setFavorite(caller: Caller, id: string, favorite: boolean): Promise<MatrixView> {
    await this.get(caller, id);
    if (favorite) {
      await this.db.query(sql`INSERT INTO matrix.favorites (tenant_id, matrix_id, user_id) VALUES (${caller.tenantId}, ${id}, ${caller.userId}) ON CONFLICT DO NOTHING`);
    } else {
      await this.db.query(sql`DELETE FROM matrix.favorites WHERE matrix_id = ${id} AND user_id = ${caller.userId} AND tenant_id = ${caller.tenantId}`);
    }
    return this.get(caller, id);
  }

  /** One view per user and matrix: saving again replaces it (an upsert on that key, so concurrent saves leave one). */
  async saveView(caller: Caller, dto: SaveViewDto): Promise<MatrixUserViewView> {
    const a = await matrixAudience(this.db, caller);
    const [seen] = await this.db.query(matrixSeen(a, dto.matrixId));
    if (!seen) throw notFound(`Matrix ${dto.matrixId} not found`, [{ field: 'matrixId', message: `Matrix ${dto.matrixId.toLowerCase()} not found` }]);
    const [row] = await this.db.query<ViewRow>(sql`INSERT INTO matrix.user_views (id, tenant_id, matrix_id, user_id, view_data)
      VALUES (${uuidv7()}, ${caller.tenantId}, ${dto.matrixId}, ${caller.userId}, ${JSON.stringify(dto.viewData)}::jsonb)
      ON CONFLICT (matrix_id, user_id) DO UPDATE SET view_data = EXCLUDED.view_data, updated_on = now()
      RETURNING ${raw(VIEW_COLUMNS)}`);
    return toUserView(row);
  }

  async getView(caller: Caller, matrixId: string): Promise<MatrixUserViewView> {
    await this.get(caller, matrixId);
    const [row] = await this.db.query<ViewRow>(sql`SELECT ${raw(VIEW_COLUMNS)} FROM matrix.user_views
      WHERE matrix_id = ${matrixId} AND user_id = ${caller.userId} AND tenant_id = ${caller.tenantId}`);
    if (!row) throw notFound(`No saved view of matrix ${matrixId}`);
    return toUserView(row);
  }

  /**
   * Per item: "Matrix not found" (unknown, deleted, another tenant's, or one the caller does not
   * see) or "Unauthorized operation" (neither the owner nor a holder of change_owner:matrices); the
   * others change in one statement.
   */
  async bulkReassignOwner(caller: Caller, dto: BulkReassignOwnerDto): Promise<BulkReassignView> {
    const ids = [...new Set(dto.matrixIds.map((x) => x.toLowerCase()))];
    return this.db.transaction(async (tx) => {
      await requireRefs(tx, caller.tenantId, { ownerId: dto.ownerId });
      const a = await matrixAudience(tx, caller);
      const rows = await tx.query<{ id: string; owner_id: string }>(sql`SELECT m.id, m.owner_id FROM matrix.matrices m
        WHERE m.id = ANY(${ids}::uuid[]) AND m.tenant_id = ${caller.tenantId} AND NOT m.is_deleted
          ${join(visibleTo(a).map((c) => sql` AND ${c}`), '')}
        ORDER BY m.id FOR UPDATE`);
      const found = new Map(rows.map((r) => [r.id, r.owner_id]));
      const failures: Record<string, string> = {};
      const allowed: string[] = [];
      for (const id of ids) {
        const owner = found.get(id);
        if (owner === undefined) failures[id] = 'Matrix not found';
        else if (owner !== caller.userId && !caller.keys.has('change_owner:matrices')) failures[id] = 'Unauthorized operation';
        else allowed.push(id);
      }
      if (allowed.length) {
        await tx.query(sql`UPDATE matrix.matrices SET owner_id = ${dto.ownerId}, updated_on = now(), updated_by = ${caller.userId}
          WHERE id = ANY(${allowed}::uuid[]) AND tenant_id = ${caller.tenantId}`);
        await publishMatrices(tx, caller.tenantId, allowed, 'evt.matrix.matrix.updated');
      }
      return { successCount: allowed.length, failureCount: Object.keys(failures).length, successIds: allowed, failures };
    });
  }

  /** The matrix locked for a change, if the caller sees it (else 404). */
  private async lockVisible(tx: Tx, caller: Caller, id: string): Promise<LockedMatrix> {
    const a = await matrixAudience(tx, caller);
    const [row] = await tx.query<LockedMatrix>(sql`SELECT m.id, ${raw(STORED_COLUMNS)}, m.ext_token, m.ext_password_hash
      FROM matrix.matrices m WHERE m.id = ${id} AND m.tenant_id = ${caller.tenantId} AND NOT m.is_deleted
        ${join(visibleTo(a).map((c) => sql` AND ${c}`), '')}
      FOR UPDATE`);
    if (!row) throw notFound(`Matrix ${id} not found`);
    return row;
  }
}

function requireStatus(statusId: string | undefined): string {
  const status = statusById(statusId);
  if (!status) throw badRequest(`matrixStatusId: ${statusId} is not a matrix status`, [{ field: 'matrixStatusId', message: 'must be one of GET /matrix/v1/matrix/statuses' }]);
  return status.statusName;
}

/** Every id the body names must be a live record of the tenant: else a 404 naming each field that names another (nothing is written). */
async function requireRefs(q: Queryable, tenantId: string, body: MatrixFieldsDto): Promise<void> {
  const refs = matrixRefs(body);
  const statement = liveRefs(tenantId, refIdsByKind(refs));
  if (!statement) return;
  const found = await q.query<{ kind: string; id: string }>(statement);
  const errors = unknownRefs(refs, new Set(found.map((r) => `${r.kind}:${r.id}`)));
  if (!errors.length) return;
  const { shown, message } = capErrors(errors);
  throw notFound(errors.length === 1 ? errors[0].message : `Records not found: ${message}`, shown);
}

interface ExternalColumns {
  enabled: boolean;
  expirationEnabled: boolean;
  expirationDate: string | null;
  passwordRequired: boolean;
  passwordHash: string | null;
  token: string | null;
}

/**
 * The external link after a change: a token (256 random bits) while enabled, kept across changes,
 * dropped when disabled (a link turned on again is a new one); the password only as a hash.
 */
async function externalColumns(dto: MatrixChangeDto, current: Pick<LockedMatrix, 'ext_enabled' | 'ext_token' | 'ext_password_hash'> | null): Promise<ExternalColumns> {
  const e = dto.matrixExternalSharing;
  if (!e?.isEnabled) return { enabled: false, expirationEnabled: false, expirationDate: null, passwordRequired: false, passwordHash: null, token: null };
  const expirationEnabled = e.isExpirationEnabled ?? false;
  if (expirationEnabled && !e.expirationDate) {
    throw badRequest('matrixExternalSharing.expirationDate: required when isExpirationEnabled is true', [
      { field: 'matrixExternalSharing.expirationDate', message: 'required when isExpirationEnabled is true' },
    ]);
  }
  const passwordRequired = e.isPasswordRequired ?? false;
  let passwordHash: string | null = null;
  if (passwordRequired) {
    if (e.password) passwordHash = await hashPassword(e.password);
    else if (current?.ext_enabled && current.ext_password_hash) passwordHash = current.ext_password_hash;
    else {
      throw badRequest('matrixExternalSharing.password: required when isPasswordRequired is first turned on', [
        { field: 'matrixExternalSharing.password', message: 'required when isPasswordRequired is first turned on' },
      ]);
    }
  }
  const token = current?.ext_enabled && current.ext_token ? current.ext_token : newShareToken();
  return { enabled: true, expirationEnabled, expirationDate: expirationEnabled ? (e.expirationDate ?? null) : null, passwordRequired, passwordHash, token };
}

/** Writes every field of the body (a full update) in one statement. */
async function writeChange(tx: Tx, tenantId: string, id: string, dto: MatrixChangeDto, status: string, ext: ExternalColumns, by: string): Promise<void> {
  const decisions = dto.matrixDecisions ?? [];
  const sharing = dto.matrixSharing;
  const shared = sharing?.type === 'SHARED';
  await tx.query(sql`UPDATE matrix.matrices SET
      matrix_description = ${dto.matrixDescription ?? null},
      role_matrix = ${dto.roleMatrix ?? false},
      authority_matrix = ${dto.authorityMatrix ?? true},
      status_name = ${status},
      current_tab = ${dto.currentTab ?? null},
      copied_from = ${dto.copiedFromMatrix ?? null},
      sharing_type = ${sharing?.type ?? 'PRIVATE'},
      sharing_option = ${sharing?.sharingOption ?? 'USERS_GROUPS'},
      sharing_link = ${sharing?.link ?? false},
      viewer_adjustable_filters = ${sharing?.viewerAdjustableFilters ?? false},
      shared_user_ids = ${shared ? [...new Set(sharing?.userIds ?? [])] : []}::uuid[],
      shared_group_ids = ${shared ? [...new Set(sharing?.groupIds ?? [])] : []}::uuid[],
      section_ids = ${[...new Set(dto.sectionIds ?? [])]}::uuid[],
      category_ids = ${[...new Set(dto.categoryIds ?? [])]}::uuid[],
      group_ids = ${[...new Set(dto.groupIds ?? [])]}::uuid[],
      position_ids = ${[...new Set(dto.positionIds ?? [])]}::uuid[],
      user_ids = ${[...new Set(dto.userIds ?? [])]}::uuid[],
      decision_ids = ${[...new Set(decisions.map((d) => d.decisionId.toLowerCase()))]}::uuid[],
      disabled_decision_ids = ${[...new Set(decisions.filter((d) => d.isDisabled).map((d) => d.decisionId.toLowerCase()))]}::uuid[],
      authority_roles = ${JSON.stringify(dto.matrixAuthorityRoles ?? [])}::jsonb,
      delegation_filter = ${JSON.stringify(dto.matrixDelegation ?? {})}::jsonb,
      formatting = ${JSON.stringify(dto.matrixAuthorityFormatting ?? {})}::jsonb,
      ext_enabled = ${ext.enabled}, ext_expiration_enabled = ${ext.expirationEnabled}, ext_expiration_date = ${ext.expirationDate}::timestamptz,
      ext_password_required = ${ext.passwordRequired}, ext_password_hash = ${ext.passwordHash}, ext_token = ${ext.token},
      updated_on = now(), updated_by = ${by}
    WHERE id = ${id} AND tenant_id = ${tenantId}`);
}

/** The matrices' events, in one statement each for reading and queueing. */
async function publishMatrices(
  tx: Tx,
  tenantId: string,
  ids: readonly string[],
  subject: 'evt.matrix.matrix.created' | 'evt.matrix.matrix.updated' | 'evt.matrix.matrix.deleted',
): Promise<void> {
  const rows = await tx.query<{
    id: string;
    matrix_display_id: string;
    matrix_name: string;
    status_name: string;
    owner_id: string;
    sharing_type: string;
    shared_user_ids: string[];
    shared_group_ids: string[];
    is_deleted: boolean;
  }>(sql`SELECT id, matrix_display_id, matrix_name, status_name, owner_id, sharing_type, shared_user_ids, shared_group_ids, is_deleted
    FROM matrix.matrices WHERE tenant_id = ${tenantId} AND id = ANY(${ids}::uuid[]) ORDER BY id`);
  await tx.publishMany(
    subject,
    rows.map((r) => ({
      tenantId,
      id: r.id,
      matrixId: r.matrix_display_id,
      matrixName: r.matrix_name,
      matrixStatusName: r.status_name,
      ownerId: r.owner_id,
      sharingType: r.sharing_type,
      sharedUserIds: r.shared_user_ids,
      sharedGroupIds: r.shared_group_ids,
      isDeleted: r.is_deleted,
    })),
  );
}
