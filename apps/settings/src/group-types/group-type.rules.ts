import { RecordStatus } from '@ddm/contracts';
import type { DisableOption } from '../core/disable-options';

/** The rules of group types that need no database; unit-tested in group-types.spec.ts. */

export interface DefaultGroupType {
  systemKey: 'ORGANIZATIONS' | 'LOCATIONS' | 'DEPARTMENTS';
  groupTypeName: string;
  shouldAllowEnableDisable: boolean;
  addressEnabled: boolean;
}

/** The three types every tenant starts with, in this order. Organizations cannot be disabled and carry addresses. */
export const DEFAULT_GROUP_TYPES: readonly DefaultGroupType[] = [
  { systemKey: 'ORGANIZATIONS', groupTypeName: 'Organizations', shouldAllowEnableDisable: false, addressEnabled: true },
  { systemKey: 'LOCATIONS', groupTypeName: 'Locations', shouldAllowEnableDisable: true, addressEnabled: false },
  { systemKey: 'DEPARTMENTS', groupTypeName: 'Departments', shouldAllowEnableDisable: true, addressEnabled: false },
];

export interface GroupTypeState {
  groupTypeName: string;
  status: string;
  isDefault: boolean;
  shouldAllowEnableDisable: boolean;
}

export interface GroupTypeChange {
  groupTypeName?: string;
  status?: RecordStatus;
  disableOption?: DisableOption;
  addressEnabled?: boolean;
}

export const GROUP_TYPE_UPDATE_FIELDS = ['groupTypeName', 'status', 'disableOption', 'addressEnabled'] as const;

/** Why an update is refused with a 409 (null = allowed): a type that cannot be disabled stays active. */
export function groupTypeChangeProblem(type: GroupTypeState, change: GroupTypeChange): string | null {
  if (change.status === 'INACTIVE' && type.status !== 'INACTIVE' && !type.shouldAllowEnableDisable) {
    return `The group type "${type.groupTypeName}" cannot be disabled`;
  }
  return null;
}

/** Why a delete is refused with a 409 (null = allowed): default types stay, and so do types groups use. */
export function groupTypeDeleteProblem(type: GroupTypeState, groupsUsingIt: number): string | null {
  if (type.isDefault) return `The group type "${type.groupTypeName}" is a default type and cannot be deleted`;
  if (groupsUsingIt > 0) return `The group type "${type.groupTypeName}" is used by ${groupsUsingIt} group${groupsUsingIt === 1 ? '' : 's'}; delete or move them first`;
  return null;
}
