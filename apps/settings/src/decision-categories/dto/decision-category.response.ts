import { ApiProperty } from '@nestjs/swagger';
import { DecisionCategoryPayload, viewFields } from '@ddm/contracts';

/** The section of a category, as the category answers it. */
export class DecisionCategorySectionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 50, example: 'Finance' }) sectionName: string;
  @ApiProperty() isDeleted: boolean;
}

/** A decision category as Aptly's public API answers it, with its section's id and name (null when it is in no section). */
export class DecisionCategoryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 50, example: 'Procurement' }) categoryName: string;
  @ApiProperty({ format: 'uuid', type: String, nullable: true, description: 'Its section; null when it is in no section' }) sectionId: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 50, example: 'Finance', description: "Its section's name; null when it is in no section" })
  sectionName: string | null;
  @ApiProperty({ type: DecisionCategorySectionView, nullable: true, description: 'Its section; null when it is in no section' })
  section: DecisionCategorySectionView | null;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' }) updatedAt: string;
}

export interface DecisionCategoryRow {
  id: string;
  tenant_id: string;
  category_name: string;
  section_id: string | null;
  /** Built by the statement (json_build_object) in the view's shape; null when the category is in no section. */
  section: DecisionCategorySectionView | null;
  is_deleted: boolean;
  created_at: string;
  updated_at: string;
}

export function toDecisionCategoryView(r: DecisionCategoryRow): DecisionCategoryView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    categoryName: r.category_name,
    sectionId: r.section_id,
    sectionName: r.section?.sectionName ?? null,
    section: r.section,
    isDeleted: r.is_deleted,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The category as evt.settings.decision-category.* carries it. */
export function toDecisionCategoryPayload(r: Pick<DecisionCategoryRow, 'id' | 'category_name' | 'section_id' | 'is_deleted'>): DecisionCategoryPayload {
  return { id: r.id, categoryName: r.category_name, sectionId: r.section_id, isDeleted: r.is_deleted };
}

/** Every field of the view: what `select` may name. */
export const DECISION_CATEGORY_FIELDS = viewFields<DecisionCategoryView>({ id: true, tenantId: true, categoryName: true, sectionId: true, sectionName: true, section: true, isDeleted: true, createdAt: true, updatedAt: true });
