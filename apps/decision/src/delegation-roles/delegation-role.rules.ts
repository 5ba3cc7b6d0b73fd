/** The rules of a delegation's roles that need no database; unit-tested in delegation-roles.spec.ts. */
import { Person } from '../core/recipients';

export interface Designee {
  designeeUserId: string | null;
  designeePositionId: string | null;
}

/**
 * Who a role names after a change: the recipient type and designees sent (ids in lower case), or
 * what the delegation's role had when the change leaves them out (none: no type, nobody); and the
 * designees as people the recipient checks read (a user, a position).
 */
export function designeesAfter(
  change: { designeeRecipientType?: string | null; roleDesignees?: readonly { designeeUserId?: string | null; designeePositionId?: string | null }[] },
  current: { designee_recipient_type: string | null; role_designees: Designee[] } | null,
): { type: string | null; designees: Designee[]; people: Person[] } {
  const type = change.designeeRecipientType !== undefined ? change.designeeRecipientType : (current?.designee_recipient_type ?? null);
  const designees = change.roleDesignees
    ? change.roleDesignees.map((d) => ({ designeeUserId: d.designeeUserId?.toLowerCase() ?? null, designeePositionId: d.designeePositionId?.toLowerCase() ?? null }))
    : (current?.role_designees ?? []);
  return { type, designees, people: designees.map((d) => ({ recipientUserId: d.designeeUserId, recipientPositionId: d.designeePositionId })) };
}

/** Why a delegation's roles may not change (its decision does not take roles: a 409), or null when they may. */
export function rolesClosed(delegation: { role_enabled: boolean; decision_name: string }): string | null {
  return delegation.role_enabled ? null : `Roles are not enabled on decision "${delegation.decision_name}" (roleEnabled is false)`;
}
