import { ApiProperty } from '@nestjs/swagger';
import { DecisionSectionPayload, viewFields } from '@ddm/contracts';

/** A category of a section, as the section answers it. */
export class DecisionSectionCategoryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid' }) sectionId: string;
  @ApiProperty({ maxLength: 50, example: 'Procurement' }) categoryName: string;
  @ApiProperty() isDeleted: boolean;
}

/** A decision section as Aptly's public API answers it, with its categories (not deleted, by name). */
export class DecisionSectionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 50, example: 'Finance' }) sectionName: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: [DecisionSectionCategoryView], description: 'The categories in the section that are not deleted, by name' })
  categories: DecisionSectionCategoryView[];
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) updatedAt: string;
}

export interface DecisionSectionRow {
  id: string;
  tenant_id: string;
  section_name: string;
  is_deleted: boolean;
  /** Built by the statement (json_agg) in the view's shape. */
  categories: DecisionSectionCategoryView[];
  created_at: string;
  updated_at: string;
}

export function toDecisionSectionView(r: DecisionSectionRow): DecisionSectionView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    sectionName: r.section_name,
    isDeleted: r.is_deleted,
    categories: r.categories,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The section as evt.settings.decision-section.* carries it. */
export function toDecisionSectionPayload(v: DecisionSectionView): DecisionSectionPayload {
  return { id: v.id, sectionName: v.sectionName, isDeleted: v.isDeleted };
}

/** Every field of the view: what `select` may name. */
export const DECISION_SECTION_FIELDS = viewFields<DecisionSectionView>({ id: true, tenantId: true, sectionName: true, isDeleted: true, categories: true, createdAt: true, updatedAt: true });
