/**
 * What happens to a group's links when it is deleted (a group's own choice, or its type's): its
 * positions and hierarchy links are kept (KEEP_ASSOCIATIONS, NA) or removed (REMOVE_ASSOCIATIONS).
 * Group types and groups both carry one.
 */
export const DISABLE_OPTIONS = ['KEEP_ASSOCIATIONS', 'REMOVE_ASSOCIATIONS', 'NA'] as const;
export type DisableOption = (typeof DISABLE_OPTIONS)[number];
