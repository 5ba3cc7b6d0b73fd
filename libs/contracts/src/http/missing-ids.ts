import { AppError, FieldError, notFound } from './errors';

/** The ids of `wanted` that are not in `found`, lower case, each once, in the order asked. */
export function missingIds(wanted: readonly string[], found: Iterable<string>): string[] {
  const have = new Set([...found].map((x) => x.toLowerCase()));
  return [...new Set(wanted.map((x) => x.toLowerCase()))].filter((x) => !have.has(x));
}

export interface MissingIdsArgs {
  /** What each id names, singular and capitalised: `Group`, `Parent group`, `Position`. */
  what: string;
  /** The request field that carried the ids (`groupIds`): each error names `field.index`. */
  field: string;
  /** The ids as the request sent them (the index of each error is its place here). */
  asked: readonly string[];
  /** The ids not found (as `missingIds` answers them). */
  missing: readonly string[];
  /** Appended to the message (`; nothing was deleted`). */
  suffix?: string;
}

/**
 * The one 404 for ids of a request that were not found: the message names them all, and
 * `errors[]` names each one with the request field that carried it (`groupIds.3`).
 */
export function missingIdsError({ what, field, asked, missing, suffix = '' }: MissingIdsArgs): AppError {
  const lower = asked.map((x) => x.toLowerCase());
  const errors: FieldError[] = missing.map((id) => ({ field: `${field}.${lower.indexOf(id.toLowerCase())}`, message: `${what} ${id} not found` }));
  return notFound(`${what}${missing.length === 1 ? '' : 's'} not found: ${missing.join(', ')}${suffix}`, errors);
}
