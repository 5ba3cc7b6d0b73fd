import { Injectable } from '@nestjs/common';
import { SETTINGS_EVENT_SUBJECTS } from '@ddm/contracts';
import { Tx } from '@ddm/platform';
import { DecisionCategoryRow, toDecisionCategoryPayload } from './dto/decision-category.response';
import { TAKE_OUT_OF_SECTION_SQL } from './decision-category.sql';

type MovedRow = Pick<DecisionCategoryRow, 'id' | 'category_name' | 'section_id' | 'is_deleted'>;

/** What other resources (decision sections) ask of decision categories. */
@Injectable()
export class DecisionCategoryRefs {
  /** Takes the tenant's categories (not deleted) out of a section being deleted, and queues their updated events (one statement each). */
  async takeOutOfSection(tx: Tx, tenantId: string, sectionId: string, by: string | null): Promise<void> {
    const moved = await tx.query<MovedRow>(TAKE_OUT_OF_SECTION_SQL, [tenantId, sectionId, by]);
    await tx.publishMany(
      SETTINGS_EVENT_SUBJECTS.decisionCategoryUpdated,
      moved.map((r) => ({ tenantId, decisionCategory: toDecisionCategoryPayload(r) })),
    );
  }
}
