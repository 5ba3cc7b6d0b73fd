/**
 * The rules of the fields a user carries, shared by the users' changes and the invitations: the
 * groups (one primary organisation), the custom attributes, and the links (roles, positions,
 * groups, manager) a change may name. Pure; unit-tested in core.spec.ts.
 */

export interface GroupAssignment {
  groupId: string;
  isPrimaryOrg?: boolean;
}

/** A user has at most one primary organisation, and names each group once. */
export function groupsProblem(groups: readonly GroupAssignment[]): string | null {
  if (groups.filter((g) => g.isPrimaryOrg === true).length > 1) return 'at most one group can be the primary organisation (isPrimaryOrg)';
  const ids = groups.map((g) => String(g.groupId).toLowerCase());
  if (new Set(ids).size !== ids.length) return 'must name each group once';
  return null;
}

export const CUSTOM_ATTRIBUTE_LIMITS = { keys: 50, keyLength: 100, valueLength: 1000 } as const;

/** customAttributes: a flat object of at most 50 keys; values are strings, numbers, booleans or null. */
export function customAttributesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of key/value pairs';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > CUSTOM_ATTRIBUTE_LIMITS.keys) return `must have at most ${CUSTOM_ATTRIBUTE_LIMITS.keys} keys`;
  for (const [k, v] of entries) {
    if (!k.length || k.length > CUSTOM_ATTRIBUTE_LIMITS.keyLength) return `keys must be 1 to ${CUSTOM_ATTRIBUTE_LIMITS.keyLength} characters`;
    if (v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) continue;
    if (typeof v === 'string') {
      if (v.length > CUSTOM_ATTRIBUTE_LIMITS.valueLength) return `value of "${k}" must be at most ${CUSTOM_ATTRIBUTE_LIMITS.valueLength} characters`;
      continue;
    }
    return `value of "${k}" must be a string, number, boolean or null`;
  }
  return null;
}

/** Keys the granted roles would give that the granting caller does not hold (no one grants more than they have). */
export function keysBeyondCaller(granted: Iterable<string>, held: ReadonlySet<string>): string[] {
  return [...new Set(granted)].filter((k) => !held.has(k)).sort();
}

/** The ids a change names, checked against the tenant in one statement (UserRefs.known). */
export interface Refs {
  roleIds: string[];
  positionIds: string[];
  groupIds: string[];
  managerIds: string[];
}

export interface KnownRefs {
  /** Live roles of the tenant and the keys each grants. */
  roles: Map<string, string[]>;
  positions: Set<string>;
  groups: Set<string>;
  /** Users with a live membership of the tenant. */
  members: Set<string>;
}

export interface LinkProblem {
  kind: 'not_found' | 'forbidden';
  field: string;
  message: string;
}

/**
 * The first problem of one user's links: an id the tenant does not know (another tenant's id is
 * unknown too) or roles granting keys the caller does not hold.
 */
export function linkProblem(
  item: { roleIds?: string[]; positionIds?: string[]; groups?: GroupAssignment[]; managerId?: string | null },
  known: KnownRefs,
  callerKeys: ReadonlySet<string>,
): LinkProblem | null {
  const role = (item.roleIds ?? []).findIndex((id) => !known.roles.has(id));
  if (role >= 0) return { kind: 'not_found', field: `roleIds.${role}`, message: `Role ${item.roleIds![role]} not found in this tenant` };
  const position = (item.positionIds ?? []).findIndex((id) => !known.positions.has(id));
  if (position >= 0) return { kind: 'not_found', field: `positionIds.${position}`, message: `Position ${item.positionIds![position]} not found in this tenant` };
  const group = (item.groups ?? []).findIndex((g) => !known.groups.has(g.groupId));
  if (group >= 0) return { kind: 'not_found', field: `groups.${group}.groupId`, message: `Group ${item.groups![group].groupId} not found in this tenant` };
  if (item.managerId && !known.members.has(item.managerId)) return { kind: 'not_found', field: 'managerId', message: `Manager ${item.managerId} not found in this tenant` };
  const beyond = keysBeyondCaller((item.roleIds ?? []).flatMap((id) => known.roles.get(id) ?? []), callerKeys);
  if (beyond.length) return { kind: 'forbidden', field: 'roleIds', message: `You cannot grant permissions you do not hold: ${beyond.join(', ')}` };
  return null;
}
