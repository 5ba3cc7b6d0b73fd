/**
 * System actions, as every folder names them: what opens one (its kind) and the cause key of an
 * Attestation action, written by the attestation consumer and read back by the actions' answer.
 * Pure; unit-tested in core.spec.ts.
 */

/** What opens a system action. */
export const SYSTEM_KINDS = ['DELEGATION_ACCEPTANCE', 'DELEGATION_APPROVAL', 'DELEGATION_REQUEST', 'DOCUMENT_REVIEW', 'DOCUMENT_APPROVAL', 'DECISION_ROLE_ACCEPTANCE', 'ATTESTATION'] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];

/** The cause of a delegation's Attestation action in a campaign: one action per (campaign, delegation). */
export function attestationCauseKey(campaignId: string, delegationId: string): string {
  return `attestation:${campaignId.toLowerCase()}:${delegationId.toLowerCase()}`;
}

/** The campaign and delegation an Attestation action's cause names (null: not an attestation's cause). */
export function attestationCauseOf(causeKey: string | null): { campaignId: string; delegationId: string } | null {
  const m = /^attestation:([0-9a-f-]{36}):([0-9a-f-]{36})$/.exec(causeKey ?? '');
  return m ? { campaignId: m[1], delegationId: m[2] } : null;
}
