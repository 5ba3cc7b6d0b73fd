import { ALL_PERMISSION_KEYS, DefaultRoleKey, PermissionKey } from '@ddm/contracts';

/** The rules of tenant roles that need no database; unit-tested in roles.spec.ts. */

export const ROLE_SORTS = ['roleName', 'createdOn', 'updatedOn'] as const;
export type RoleSort = (typeof ROLE_SORTS)[number];

export interface MappingChange {
  relationshipKeyName: string;
  isEnabled: boolean;
}

export interface RoleState {
  roleName: string;
  systemKey: DefaultRoleKey | string | null;
  canDeactivate: boolean;
}

export interface RoleChange {
  isDeactivated?: boolean;
  relationshipMappings?: readonly MappingChange[];
}

/** Why a change is refused: roles that cannot be deactivated, and System Admin keeps every key. */
export function roleChangeProblem(role: RoleState, change: RoleChange): string | null {
  if (change.isDeactivated === true && !role.canDeactivate) return `The role "${role.roleName}" cannot be deactivated`;
  if (role.systemKey === 'SYSTEM_ADMIN' && change.relationshipMappings?.some((m) => !m.isEnabled)) {
    const lost = change.relationshipMappings.filter((m) => !m.isEnabled).map((m) => m.relationshipKeyName);
    return `System Admin keeps every permission; it cannot lose ${lost.join(', ')}`;
  }
  return null;
}

/** A new role's mappings: every key of the catalogue, enabled where the request enables it. */
export function fullMappings(given: readonly MappingChange[] = []): { relationshipKeyName: PermissionKey; isEnabled: boolean }[] {
  const enabled = new Map(given.map((m) => [m.relationshipKeyName, m.isEnabled]));
  return ALL_PERMISSION_KEYS.map((k) => ({ relationshipKeyName: k, isEnabled: enabled.get(k) === true }));
}

/** Keys a change would enable that the caller does not hold (no one grants more than they have). */
export function enabledBeyondCaller(given: readonly MappingChange[] | undefined, held: ReadonlySet<string>): string[] {
  return [...new Set((given ?? []).filter((m) => m.isEnabled && !held.has(m.relationshipKeyName)).map((m) => m.relationshipKeyName))].sort();
}
