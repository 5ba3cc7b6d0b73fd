import { Injectable } from '@nestjs/common';
import { AuthorityTypeEvent, Page, SETTINGS_EVENT_SUBJECTS, badRequest, conflict, notFound, selectPage } from '@ddm/contracts';
import { Db, TenantUniqueName, Tx, listPage, raw, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { auditedChange } from '../core/change.sql';
import { nothingToChange } from '../core/change.rules';
import {
  AUTHORITY_TYPE_UPDATE_FIELDS,
  authorityTypeChangeProblem,
  eventKindOf,
  namesAChange,
  orderAfter,
} from './authority-type.rules';
import {
  AUTHORITY_TYPE_COLUMNS,
  LAST_AUTHORITY_TYPE_ORDER_SQL,
  LOCK_AUTHORITY_TYPE_ORDERS_SQL,
  LOCK_AUTHORITY_TYPE_SQL,
  authorityTypeList,
} from './authority-type.sql';
import { CreateAuthorityTypeDto, UpdateAuthorityTypeDto } from './dto/authority-type-change.dto';
import { AuthorityTypeRow, AuthorityTypeView, toAuthorityTypePayload, toAuthorityTypeView } from './dto/authority-type.response';
import { ListAuthorityTypesQuery } from './dto/list-authority-types.query';
import { AuthorityTypeRefs } from './authority-type-refs';

const EVENT_SUBJECT = {
  created: SETTINGS_EVENT_SUBJECTS.authorityTypeCreated,
  updated: SETTINGS_EVENT_SUBJECTS.authorityTypeUpdated,
  deleted: SETTINGS_EVENT_SUBJECTS.authorityTypeDeleted,
} as const;

const event = (tenantId: string, row: AuthorityTypeRow): AuthorityTypeEvent => ({ tenantId, authorityType: toAuthorityTypePayload(toAuthorityTypeView(row)) });

/**
 * Authority types of a tenant (Approval and Signatory, then the tenant's own): listed, created,
 * renamed, reordered, (de)activated, and deleted softly (never a default one). Every change
 * publishes its event in its transaction.
 */
@Injectable()
export class AuthorityTypesService {
  constructor(
    private readonly db: Db,
    private readonly defaults: AuthorityTypeRefs,
  ) {}

  /** One statement: the page of the tenant's types that match, and their total (see authority-type.sql.ts). */
  async list(tenantId: string, q: ListAuthorityTypesQuery): Promise<Page<Partial<AuthorityTypeView>>> {
    await this.defaults.ensureDefaults(tenantId);
    return selectPage(await listPage(this.db, authorityTypeList(tenantId, q), toAuthorityTypeView), q.select);
  }

  async create(tenantId: string, dto: CreateAuthorityTypeDto, by: string | null): Promise<AuthorityTypeView> {
    await this.defaults.ensureDefaults(tenantId);
    return this.db.transaction(async (tx) => {
      await refuseTakenName(tx, AUTHORITY_TYPE_NAME, tenantId, dto.authorityType, null);
      const order = dto.authorityTypeOrder ?? (await this.orderAfterLast(tx, tenantId));
      const [row] = await writeUniqueName(AUTHORITY_TYPE_NAME, dto.authorityType, () =>
        tx.query<AuthorityTypeRow>(
          `INSERT INTO settings.authority_types AS a (id, tenant_id, authority_type, authority_type_icon, authority_type_order, status, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${AUTHORITY_TYPE_COLUMNS}`,
          [uuidv7(), tenantId, dto.authorityType, dto.authorityTypeIcon ?? null, order, dto.status ?? 'ACTIVE', by],
        ),
      );
      await tx.publish(EVENT_SUBJECT.created, event(tenantId, row));
      return toAuthorityTypeView(row);
    });
  }

  /**
   * Renames, sets or clears the icon, reorders, (de)activates or deletes (softly) a type of the
   * caller's tenant. A deleted type, or another tenant's, is a 404; deleting a default type is a 409;
   * `{}` and `isDeleted: false` alone are a 400 (nothing to change).
   */
  async update(tenantId: string, id: string, dto: UpdateAuthorityTypeDto, by: string | null): Promise<AuthorityTypeView> {
    if (!namesAChange(dto)) throw badRequest(nothingToChange(AUTHORITY_TYPE_UPDATE_FIELDS));
    return this.db.transaction(async (tx) => {
      const [current] = await tx.query<{ authority_type: string; is_default: boolean }>(LOCK_AUTHORITY_TYPE_SQL, [id, tenantId]);
      if (!current) throw notFound(`Authority type ${id} not found`);
      const problem = authorityTypeChangeProblem({ authorityType: current.authority_type, isDefault: current.is_default }, dto);
      if (problem) throw conflict(problem);
      // A deleted type frees its name; a rename that stays live must not take another type's.
      if (dto.authorityType !== undefined && dto.isDeleted !== true) await refuseTakenName(tx, AUTHORITY_TYPE_NAME, tenantId, dto.authorityType, id);

      const sets = auditedChange(by, dto.isDeleted === true);
      if (dto.authorityType !== undefined) sets.set('authority_type', dto.authorityType);
      if (dto.authorityTypeIcon !== undefined) sets.set('authority_type_icon', dto.authorityTypeIcon);
      if (dto.authorityTypeOrder !== undefined) sets.set('authority_type_order', dto.authorityTypeOrder);
      if (dto.status !== undefined) sets.set('status', dto.status);
      const [row] = await writeUniqueName(AUTHORITY_TYPE_NAME, dto.authorityType ?? current.authority_type, () =>
        tx.query<AuthorityTypeRow>(sql`UPDATE settings.authority_types a SET ${sets.sql} WHERE a.id = ${id} AND a.tenant_id = ${tenantId} RETURNING ${raw(AUTHORITY_TYPE_COLUMNS)}`),
      );
      await tx.publish(EVENT_SUBJECT[eventKindOf(dto)], event(tenantId, row));
      return toAuthorityTypeView(row);
    });
  }

  /** The order after the tenant's last type, under the tenant's lock for orders (held until the transaction ends). */
  private async orderAfterLast(tx: Tx, tenantId: string): Promise<number> {
    await tx.query(LOCK_AUTHORITY_TYPE_ORDERS_SQL, [tenantId]);
    const [{ last }] = await tx.query<{ last: number | null }>(LAST_AUTHORITY_TYPE_ORDER_SQL, [tenantId]);
    return orderAfter(last);
  }
}

/** 409 when another live type of the tenant has the name (in any case). The unique index backs this up against races, with the same 409. */
const AUTHORITY_TYPE_NAME: TenantUniqueName = {
  table: 'settings.authority_types',
  column: 'authority_type',
  index: 'authority_types_name',
  taken: (name) => `An authority type named "${name}" already exists in this tenant`,
};
