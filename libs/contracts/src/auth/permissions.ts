/**
 * The `permissions` of a record for its caller (ARCHITECTURE §4), built the same way in every area:
 * each key that applies to the record, allowed when the caller's roles grant the key, or when the
 * caller's relationship to the record grants it (the owner may edit their own decision, an assignee
 * their action, ...). The same rule decides whether the caller may do it (`requireAllowed`).
 */
import { ApiProperty } from '@nestjs/swagger';
import { forbidden } from '../http/errors';
import { ALL_PERMISSION_KEYS, PermissionKey } from '../permission-keys';
import type { Caller } from './caller';

/** How a caller can stand to a record. */
export const RELATIONSHIPS = ['owner', 'issuer', 'recipient', 'assignee', 'reviewer', 'approver', 'shared'] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

/** A key that applies to a kind of record, and the relationships that grant it without the role key. */
export interface PermissionRule {
  key: PermissionKey;
  grantedTo?: readonly Relationship[];
}

/** One entry of a record's `permissions` (spec §2.2, §2.9: `relationship_key` and `allowed`). */
export class RecordPermission {
  @ApiProperty({ type: String, enum: ALL_PERMISSION_KEYS, example: 'edit:decisions', description: 'A key that applies to the record' }) relationship_key: PermissionKey;
  @ApiProperty({ description: 'Whether the caller holds it (through a role, or a relationship to the record)' }) allowed: boolean;
}

/** Whether the caller may act on the record by `rule`: the role key, or a relationship that grants it. */
export function isAllowed(caller: Pick<Caller, 'keys'>, rule: PermissionRule, relationships: Iterable<Relationship> = []): boolean {
  if (caller.keys.has(rule.key)) return true;
  if (!rule.grantedTo?.length) return false;
  for (const r of relationships) if (rule.grantedTo.includes(r)) return true;
  return false;
}

/** The record's `permissions` array for the caller: every rule of its kind, with `allowed`. */
export function recordPermissions(caller: Pick<Caller, 'keys'>, rules: readonly PermissionRule[], relationships: Iterable<Relationship> = []): RecordPermission[] {
  const held = [...relationships];
  return rules.map((rule) => ({ relationship_key: rule.key, allowed: isAllowed(caller, rule, held) }));
}

/** A 403 naming the key unless the caller may act on the record by `rule`. */
export function requireAllowed(caller: Pick<Caller, 'keys'>, rule: PermissionRule, relationships: Iterable<Relationship> = []): void {
  if (!isAllowed(caller, rule, relationships)) throw forbidden(`Missing permission "${rule.key}"`);
}

/** The relationships of the caller to a record whose people are named by these ids (owner, assignees, ...). */
export function relationshipsOf(callerId: string, people: Partial<Record<Relationship, string | readonly (string | null)[] | null | undefined>>): Relationship[] {
  const out: Relationship[] = [];
  for (const [relationship, who] of Object.entries(people) as [Relationship, string | readonly (string | null)[] | null | undefined][]) {
    if (who === callerId || (Array.isArray(who) && who.includes(callerId))) out.push(relationship);
  }
  return out;
}
