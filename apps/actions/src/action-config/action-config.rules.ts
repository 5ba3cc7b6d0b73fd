/** The action configuration every tenant starts with; pure, unit-tested in action-config.spec.ts. */
import { DEFAULT_ACTION_TYPES, actionDefaultId } from '@ddm/contracts';
import { PriorityKey, StatusKey } from '../core/configuration.rules';

export const DEFAULT_STATUSES: readonly { key: StatusKey; name: string }[] = [
  { key: 'TODO', name: 'To Do' },
  { key: 'IN_PROGRESS', name: 'In Progress' },
  { key: 'COMPLETED', name: 'Completed' },
  { key: 'CANCELED', name: 'Canceled' },
  { key: 'OVERDUE', name: 'Overdue' },
];

export const DEFAULT_PRIORITIES: readonly { key: PriorityKey; name: string; colorName: string }[] = [
  { key: 'LOW', name: 'Low', colorName: 'green' },
  { key: 'MEDIUM', name: 'Medium', colorName: 'blue' },
  { key: 'HIGH', name: 'High', colorName: 'orange' },
  { key: 'CRITICAL', name: 'Critical', colorName: 'red' },
];

/** The rows of a tenant's default configuration, with their derived ids (the same on every replica and in every area). */
export function defaultConfiguration(tenantId: string) {
  return {
    statuses: DEFAULT_STATUSES.map((s, i) => ({ id: actionDefaultId(tenantId, 'status', s.key), key: s.key, name: s.name, position: i + 1 })),
    priorities: DEFAULT_PRIORITIES.map((p, i) => ({ id: actionDefaultId(tenantId, 'priority', p.key), key: p.key, name: p.name, colorName: p.colorName, position: i + 1 })),
    types: DEFAULT_ACTION_TYPES.map((t, i) => ({ id: actionDefaultId(tenantId, 'type', t.type), type: t.type, name: t.name, typeIcon: t.typeIcon, position: i + 1 })),
  };
}
