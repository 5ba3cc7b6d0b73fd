/**
 * The catalogue of relationship keys (ARCHITECTURE §4), the one place they are named.
 * A tenant role grants keys through its relationshipMappings; endpoints name the key they need
 * with @RequirePermission(key).
 */
export const PERMISSION_KEYS = {
  'view:decisions': 'See decisions, their delegations and conditions',
  'create:decisions': 'Create decisions',
  'edit:decisions': 'Change decisions',
  'delete:decisions': 'Delete and restore decisions',
  'create:root_delegations': 'Issue delegations from root authority',
  'create:delegations': 'Issue delegations from authority one holds',
  'approve:delegations': 'Approve delegations',
  'create:actions': 'Create actions',
  'edit:actions': 'Change and reassign actions',
  'create:documents': 'Create documents',
  'edit:documents': 'Change documents',
  'review:documents': 'Review documents',
  'approve:documents': 'Approve documents',
  'create:matrices': 'Create matrices',
  'edit:matrices': 'Change matrices',
  'share:matrices': 'Share matrices with users and groups',
  'change_owner:matrices': 'Reassign the owner of matrices',
  'manage:settings': 'Change group types, groups, positions and decision roles',
  'manage:users': 'Invite users, change them and their status, resend invitations',
  'manage:roles': 'Create and change tenant roles and their keys',
  'create:notifications': 'Create notifications for other users',
  'view:audit': 'Read the audit trail of every area (who changed what, when)',
} as const;

export type PermissionKey = keyof typeof PERMISSION_KEYS;
export const ALL_PERMISSION_KEYS = Object.keys(PERMISSION_KEYS) as PermissionKey[];

export function isPermissionKey(value: string): value is PermissionKey {
  return Object.prototype.hasOwnProperty.call(PERMISSION_KEYS, value);
}

export type DefaultRoleKey = 'SYSTEM_ADMIN' | 'GLOBAL_AUTHORITY_MANAGER' | 'GLOBAL_USER' | 'AUDITOR';

export interface DefaultRole {
  key: DefaultRoleKey;
  roleName: string;
  description: string;
  canDeactivate: boolean;
  keys: readonly PermissionKey[];
}

const AUTHORITY_KEYS: PermissionKey[] = ALL_PERMISSION_KEYS.filter(
  (k) => !['manage:settings', 'manage:users', 'manage:roles', 'view:audit'].includes(k),
);

/** The four roles every tenant starts with (ARCHITECTURE §4). */
export const DEFAULT_ROLES: readonly DefaultRole[] = [
  {
    key: 'SYSTEM_ADMIN',
    roleName: 'System Admin',
    description: 'Full access to every area, including settings, users and roles',
    canDeactivate: false,
    keys: ALL_PERMISSION_KEYS,
  },
  {
    key: 'GLOBAL_AUTHORITY_MANAGER',
    roleName: 'Global Authority Manager',
    description: 'Creates, changes, deletes and approves decisions, delegations, actions, documents and matrices',
    canDeactivate: true,
    keys: AUTHORITY_KEYS,
  },
  {
    key: 'GLOBAL_USER',
    roleName: 'Global User',
    description: 'Views decisions and creates actions; changes what they own or are assigned',
    canDeactivate: true,
    keys: ['view:decisions', 'create:actions'],
  },
  {
    key: 'AUDITOR',
    roleName: 'Auditor',
    description: 'Views everything and changes nothing',
    canDeactivate: true,
    keys: ['view:decisions', 'view:audit'],
  },
];
