import { Injectable } from '@nestjs/common';
import { DecisionRoleEvent, Page, SETTINGS_EVENT_SUBJECTS, badRequest, notFound, selectPage } from '@ddm/contracts';
import { Db, TenantUniqueName, listPage, raw, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { auditedChange } from '../core/change.sql';
import { DECISION_ROLE_UPDATE_FIELDS, eventKindOf, namesAChange } from './decision-role.rules';
import { CreateDecisionRoleDto, UpdateDecisionRoleDto } from './dto/decision-role-change.dto';
import { DECISION_ROLE_COLUMNS, decisionRoleList } from './decision-role.sql';
import { DecisionRoleRow, DecisionRoleView, toDecisionRolePayload, toDecisionRoleView } from './dto/decision-role.response';
import { ListDecisionRolesQuery } from './dto/list-decision-roles.query';

const EVENT_SUBJECT = {
  created: SETTINGS_EVENT_SUBJECTS.decisionRoleCreated,
  updated: SETTINGS_EVENT_SUBJECTS.decisionRoleUpdated,
  deleted: SETTINGS_EVENT_SUBJECTS.decisionRoleDeleted,
} as const;

/** Decision roles of a tenant: listed, created, renamed, (de)activated and deleted softly. Every change publishes its event in its transaction. */
@Injectable()
export class DecisionRolesService {
  constructor(private readonly db: Db) {}

  /** One statement: the page of the tenant's roles that match, and their total (see decision-role.sql.ts). */
  async list(tenantId: string, q: ListDecisionRolesQuery): Promise<Page<Partial<DecisionRoleView>>> {
    return selectPage(await listPage(this.db, decisionRoleList(tenantId, q), toDecisionRoleView), q.select);
  }

  async create(tenantId: string, dto: CreateDecisionRoleDto, by: string | null): Promise<DecisionRoleView> {
    return this.db.transaction(async (tx) => {
      await refuseTakenName(tx, ROLE_NAME, tenantId, dto.roleName, null);
      const [row] = await writeUniqueName(ROLE_NAME, dto.roleName, () =>
        tx.query<DecisionRoleRow>(
          `INSERT INTO settings.decision_roles AS d (id, tenant_id, role_name, status, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${DECISION_ROLE_COLUMNS}`,
          [uuidv7(), tenantId, dto.roleName, dto.status ?? 'ACTIVE', by],
        ),
      );
      const view = toDecisionRoleView(row);
      await tx.publish(EVENT_SUBJECT.created, { tenantId, decisionRole: toDecisionRolePayload(view) } satisfies DecisionRoleEvent);
      return view;
    });
  }

  /**
   * Renames, (de)activates or deletes (softly) a role of the caller's tenant. A deleted role, or
   * another tenant's, is a 404; `isDeleted: false` alone is a 400 (nothing to change).
   */
  async update(tenantId: string, id: string, dto: UpdateDecisionRoleDto, by: string | null): Promise<DecisionRoleView> {
    if (!namesAChange(dto)) throw badRequest(`Nothing to change: send at least one of ${DECISION_ROLE_UPDATE_FIELDS.join(', ')}`);
    return this.db.transaction(async (tx) => {
      const [current] = await tx.query<{ role_name: string }>(
        `SELECT role_name FROM settings.decision_roles WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`,
        [id, tenantId],
      );
      if (!current) throw notFound(`Decision role ${id} not found`);
      // A deleted role frees its name; a rename that stays live must not take another role's.
      if (dto.roleName !== undefined && dto.isDeleted !== true) await refuseTakenName(tx, ROLE_NAME, tenantId, dto.roleName, id);

      const sets = auditedChange(by, dto.isDeleted === true);
      if (dto.roleName !== undefined) sets.set('role_name', dto.roleName);
      if (dto.status !== undefined) sets.set('status', dto.status);
      const [row] = await writeUniqueName(ROLE_NAME, dto.roleName ?? current.role_name, () =>
        tx.query<DecisionRoleRow>(
          sql`UPDATE settings.decision_roles d SET ${sets.sql} WHERE d.id = ${id} AND d.tenant_id = ${tenantId} RETURNING ${raw(DECISION_ROLE_COLUMNS)}`,
        ),
      );
      const view = toDecisionRoleView(row);
      await tx.publish(EVENT_SUBJECT[eventKindOf(dto)], { tenantId, decisionRole: toDecisionRolePayload(view) } satisfies DecisionRoleEvent);
      return view;
    });
  }
}

/** 409 when another live role of the tenant has the name (in any case). The unique index backs this up against races, with the same 409. */
const ROLE_NAME: TenantUniqueName = {
  table: 'settings.decision_roles',
  column: 'role_name',
  index: 'decision_roles_name',
  taken: (name) => `A decision role named "${name}" already exists in this tenant`,
};
