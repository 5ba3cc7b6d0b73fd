/** A registry entry: the payload class of a subject and what the event means. */
export interface EventEntry<P extends object = object> {
  payload: new () => P;
  summary: string;
}

export function eventEntry<P extends object>(payload: new () => P, summary: string): EventEntry<P> {
  return { payload, summary };
}
