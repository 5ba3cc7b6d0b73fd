/** The rules of decision sections that need no database; unit-tested in decision-sections.spec.ts. */

export const DECISION_SECTION_SORTS = ['sectionName', 'createdAt'] as const;
export type DecisionSectionSort = (typeof DECISION_SECTION_SORTS)[number];

export const DECISION_SECTION_NAME_MAX = 50;
