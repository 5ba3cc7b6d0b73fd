/**
 * The rules every soft-deletable settings record shares for a PATCH (decision roles, decision
 * categories, authority types): what counts as a change, and which event it publishes.
 * Pure; unit-tested in core.spec.ts.
 */

/** A PATCH of a record that deletes it softly with `isDeleted: true`. */
export interface SoftDeletableChange {
  isDeleted?: boolean;
}

/**
 * True when the change names at least one of `fields` (`null` is a change: it clears a value).
 * `isDeleted: false` alone changes nothing, so it is not a change.
 */
export function namesAChange<C extends SoftDeletableChange>(change: C, fields: readonly (keyof C & string)[]): boolean {
  return fields.some((f) => (f === 'isDeleted' ? change.isDeleted === true : change[f] !== undefined));
}

/** Which event a change publishes: deleting wins over the other fields changed with it. */
export function eventKindOf(change: SoftDeletableChange): 'updated' | 'deleted' {
  return change.isDeleted === true ? 'deleted' : 'updated';
}

/** The 400 message of a PATCH that names nothing to change. */
export function nothingToChange(fields: readonly string[]): string {
  return `Nothing to change: send at least one of ${fields.join(', ')}`;
}
