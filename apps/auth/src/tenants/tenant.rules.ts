/** The rules of tenants that need no database; unit-tested in tenants.spec.ts. */
import { ALL_PERMISSION_KEYS, DEFAULT_ROLES, PermissionKey } from '@ddm/contracts';

/**
 * The permission keys of a new tenant's default roles (ARCHITECTURE §4), one row per role and key:
 * each default role lists every key, enabled when the role grants it by default. `roleIds` are the
 * new roles' ids, in the order of DEFAULT_ROLES.
 */
export function defaultRoleMappings(roleIds: readonly string[]): { roleId: string; key: PermissionKey; enabled: boolean }[] {
  return DEFAULT_ROLES.flatMap((role, i) => ALL_PERMISSION_KEYS.map((key) => ({ roleId: roleIds[i], key, enabled: role.keys.includes(key) })));
}
