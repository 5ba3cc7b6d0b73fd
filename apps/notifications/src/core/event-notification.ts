/** What a notification made for an event says and whom it goes to, before the notifications resource makes it (pure, no I/O). */
import { TemplateKey } from './template.rules';

/** One notification to make from an event (consumers) or a sweep (the expiring delegations). */
export interface EventNotification {
  templateKey: TemplateKey;
  /** People named. */
  userIds: string[];
  /** Positions whose holders (now) are told. */
  positionIds: string[];
  placeholders: Record<string, string>;
  entityType: string;
  entityId: string;
  /** Path of the record in the app (the notifications resource puts the app's address before it). */
  path: string;
  /** The natural key: one notification per event and person, however often the event arrives. */
  sourceKey: string;
}

/** The ids given, each once, without the empty ones. */
export const uniq = (xs: readonly (string | null | undefined)[]): string[] => [...new Set(xs.filter((x): x is string => !!x))];
