/** The rules of a delegation's conditions that need no database; unit-tested in conditions.spec.ts. */

/** Why a change of a condition changes nothing (none of its fields sent), or null when it names one. */
export function nothingToChange(change: { conditionName?: string; conditionDescription?: string | null; isActive?: boolean }): string | null {
  if (change.conditionName === undefined && change.conditionDescription === undefined && change.isActive === undefined) {
    return 'Nothing to change: send at least one of conditionName, conditionDescription, isActive';
  }
  return null;
}

/** Why a delegation's conditions may not change (its decision does not take conditions: a 409), or null when they may. */
export function conditionsClosed(delegation: { condition_enabled: boolean; decision_name: string }): string | null {
  return delegation.condition_enabled ? null : `Conditions are not enabled on decision "${delegation.decision_name}" (conditionEnabled is false)`;
}
