/** Ids, lower case, each once, in the order given. */
export function unique(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}
