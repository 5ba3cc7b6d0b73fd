import { Injectable } from '@nestjs/common';
import { DecisionSectionEvent, Page, SETTINGS_EVENT_SUBJECTS, notFound, selectPage } from '@ddm/contracts';
import { Db, TenantUniqueName, listPage, refuseTakenName, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { DecisionCategoryRefs } from '../decision-categories/decision-category-refs';
import { CreateDecisionSectionDto } from './dto/decision-section-change.dto';
import { DecisionSectionRow, DecisionSectionView, toDecisionSectionPayload, toDecisionSectionView } from './dto/decision-section.response';
import { ListDecisionSectionsQuery } from './dto/list-decision-sections.query';
import { DECISION_SECTION_COLUMNS, DELETE_DECISION_SECTION_SQL, LOCK_DECISION_SECTION_SQL, decisionSectionList } from './decision-section.sql';

/** Decision sections of a tenant: listed, created and deleted softly. Every change publishes its events in its transaction. */
@Injectable()
export class DecisionSectionsService {
  constructor(
    private readonly db: Db,
    private readonly categories: DecisionCategoryRefs,
  ) {}

  /** One statement: the page of the tenant's sections that match (with their categories), and their total. */
  async list(tenantId: string, q: ListDecisionSectionsQuery): Promise<Page<Partial<DecisionSectionView>>> {
    return selectPage(await listPage(this.db, decisionSectionList(tenantId, q), toDecisionSectionView), q.select);
  }

  async create(tenantId: string, dto: CreateDecisionSectionDto, by: string | null): Promise<DecisionSectionView> {
    return this.db.transaction(async (tx) => {
      await refuseTakenName(tx, SECTION_NAME, tenantId, dto.sectionName, null);
      const [row] = await writeUniqueName(SECTION_NAME, dto.sectionName, () =>
        tx.query<DecisionSectionRow>(
          `INSERT INTO settings.decision_sections AS s (id, tenant_id, section_name, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $4) RETURNING ${DECISION_SECTION_COLUMNS}`,
          [uuidv7(), tenantId, dto.sectionName, by],
        ),
      );
      const view = toDecisionSectionView(row);
      await tx.publish(SETTINGS_EVENT_SUBJECTS.decisionSectionCreated, { tenantId, decisionSection: toDecisionSectionPayload(view) } satisfies DecisionSectionEvent);
      return view;
    });
  }

  /**
   * Deletes a section of the caller's tenant softly. Its categories stay, in no section (their
   * updated events follow the section's deleted event). Answers the deleted section (no categories left).
   */
  async remove(tenantId: string, id: string, by: string | null): Promise<DecisionSectionView> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.query(LOCK_DECISION_SECTION_SQL, [id, tenantId]);
      if (!current) throw notFound(`Decision section ${id} not found`);
      const [row] = await tx.query<DecisionSectionRow>(DELETE_DECISION_SECTION_SQL, [id, tenantId, by]);
      await tx.publish(SETTINGS_EVENT_SUBJECTS.decisionSectionDeleted, { tenantId, decisionSection: toDecisionSectionPayload(toDecisionSectionView(row)) });
      await this.categories.takeOutOfSection(tx, tenantId, id, by);
      // The answer as the section stands now: deleted, without categories.
      return toDecisionSectionView({ ...row, categories: [] });
    });
  }
}

/** 409 when another live section of the tenant has the name (in any case). The unique index backs this up against races, with the same 409. */
const SECTION_NAME: TenantUniqueName = {
  table: 'settings.decision_sections',
  column: 'section_name',
  index: 'decision_sections_name',
  taken: (name) => `A decision section named "${name}" already exists in this tenant`,
};
