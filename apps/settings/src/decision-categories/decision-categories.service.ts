import { Injectable } from '@nestjs/common';
import { DecisionCategoryEvent, Page, SETTINGS_EVENT_SUBJECTS, badRequest, notFound, selectPage } from '@ddm/contracts';
import { Db, TenantUniqueName, listPage, raw, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { auditedChange } from '../core/change.sql';
import { nothingToChange } from '../core/change.rules';
import { requireLiveSection } from '../core/live-records.sql';
import { DECISION_CATEGORY_UPDATE_FIELDS, eventKindOf, namesAChange } from './decision-category.rules';
import { DECISION_CATEGORY_COLUMNS, LOCK_DECISION_CATEGORY_SQL, decisionCategoryList } from './decision-category.sql';
import { CreateDecisionCategoryDto, UpdateDecisionCategoryDto } from './dto/decision-category-change.dto';
import { DecisionCategoryRow, DecisionCategoryView, toDecisionCategoryPayload, toDecisionCategoryView } from './dto/decision-category.response';
import { ListDecisionCategoriesQuery } from './dto/list-decision-categories.query';

const EVENT_SUBJECT = {
  created: SETTINGS_EVENT_SUBJECTS.decisionCategoryCreated,
  updated: SETTINGS_EVENT_SUBJECTS.decisionCategoryUpdated,
  deleted: SETTINGS_EVENT_SUBJECTS.decisionCategoryDeleted,
} as const;

/**
 * Decision categories of a tenant, each optionally in a section: listed, created, renamed, moved
 * and deleted softly. Every change publishes its event in its transaction.
 */
@Injectable()
export class DecisionCategoriesService {
  constructor(private readonly db: Db) {}

  /** One statement: the page of the tenant's categories that match (with their sections), and their total. */
  async list(tenantId: string, q: ListDecisionCategoriesQuery): Promise<Page<Partial<DecisionCategoryView>>> {
    return selectPage(await listPage(this.db, decisionCategoryList(tenantId, q), toDecisionCategoryView), q.select);
  }

  async create(tenantId: string, dto: CreateDecisionCategoryDto, by: string | null): Promise<DecisionCategoryView> {
    return this.db.transaction(async (tx) => {
      if (dto.sectionId) await requireLiveSection(tx, tenantId, dto.sectionId, 'sectionId');
      await refuseTakenName(tx, CATEGORY_NAME, tenantId, dto.categoryName, null);
      const [row] = await writeUniqueName(CATEGORY_NAME, dto.categoryName, () =>
        tx.query<DecisionCategoryRow>(
          `INSERT INTO settings.decision_categories AS c (id, tenant_id, category_name, section_id, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${DECISION_CATEGORY_COLUMNS}`,
          [uuidv7(), tenantId, dto.categoryName, dto.sectionId ?? null, by],
        ),
      );
      await tx.publish(EVENT_SUBJECT.created, { tenantId, decisionCategory: toDecisionCategoryPayload(row) } satisfies DecisionCategoryEvent);
      return toDecisionCategoryView(row);
    });
  }

  /**
   * Renames, moves (`sectionId`; null: out of its section) or deletes (softly) a category of the
   * caller's tenant. A deleted category, or another tenant's, is a 404; so is a section that is not
   * a live one of the tenant. `{}` and `isDeleted: false` alone are a 400 (nothing to change).
   */
  async update(tenantId: string, id: string, dto: UpdateDecisionCategoryDto, by: string | null): Promise<DecisionCategoryView> {
    if (!namesAChange(dto)) throw badRequest(nothingToChange(DECISION_CATEGORY_UPDATE_FIELDS));
    return this.db.transaction(async (tx) => {
      // The section first, then the category: the order a section's delete takes them in (no deadlock between the two).
      if (dto.sectionId) await requireLiveSection(tx, tenantId, dto.sectionId, 'sectionId');
      const [current] = await tx.query<{ category_name: string }>(LOCK_DECISION_CATEGORY_SQL, [id, tenantId]);
      if (!current) throw notFound(`Decision category ${id} not found`);
      // A deleted category frees its name; a rename that stays live must not take another category's.
      if (dto.categoryName !== undefined && dto.isDeleted !== true) await refuseTakenName(tx, CATEGORY_NAME, tenantId, dto.categoryName, id);

      const sets = auditedChange(by, dto.isDeleted === true);
      if (dto.categoryName !== undefined) sets.set('category_name', dto.categoryName);
      if (dto.sectionId !== undefined) sets.set('section_id', dto.sectionId);
      const [row] = await writeUniqueName(CATEGORY_NAME, dto.categoryName ?? current.category_name, () =>
        tx.query<DecisionCategoryRow>(
          sql`UPDATE settings.decision_categories c SET ${sets.sql} WHERE c.id = ${id} AND c.tenant_id = ${tenantId} RETURNING ${raw(DECISION_CATEGORY_COLUMNS)}`,
        ),
      );
      await tx.publish(EVENT_SUBJECT[eventKindOf(dto)], { tenantId, decisionCategory: toDecisionCategoryPayload(row) } satisfies DecisionCategoryEvent);
      return toDecisionCategoryView(row);
    });
  }
}

/** 409 when another live category of the tenant has the name (in any case). The unique index backs this up against races, with the same 409. */
const CATEGORY_NAME: TenantUniqueName = {
  table: 'settings.decision_categories',
  column: 'category_name',
  index: 'decision_categories_name',
  taken: (name) => `A decision category named "${name}" already exists in this tenant`,
};
