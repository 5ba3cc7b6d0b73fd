/** Events of the decision area that other areas project. */
import { EnumField, IntField, StringArrayField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';

export const DELEGATION_ISSUER_TYPES = ['ROOT_AUTHORITY', 'PERSONNEL_IN_POSITION', 'POSITION_ONLY', 'SPECIFIC_PERSONNEL'] as const;
export const DELEGATION_RECIPIENT_TYPES = ['PERSONNEL_IN_POSITION', 'POSITION_ONLY', 'SPECIFIC_PERSONNEL'] as const;
export type DelegationIssuerType = (typeof DELEGATION_ISSUER_TYPES)[number];
export type DelegationRecipientType = (typeof DELEGATION_RECIPIENT_TYPES)[number];

/** evt.decision.delegation.issued | updated | revoked: feeds other areas' delegation counts and filters. */
export class DelegationEvent {
  @UuidField() tenantId: string;
  @UuidField() delegationId: string;
  @UuidField() decisionId: string;
  @StringArrayField({ max: 50, maxLength: 100, description: 'Pathway names (Matrix, Direct Line, Functional, ...)' }) pathways: string[];
  @UuidArrayField({ max: 500, description: 'Record ids of the groups the delegation covers' }) groupIds: string[];
  @EnumField(DELEGATION_ISSUER_TYPES) issuerType: DelegationIssuerType;
  @UuidField({ nullable: true }) issuerUserId: string | null;
  @UuidField({ nullable: true }) issuerPositionId: string | null;
  @EnumField(DELEGATION_RECIPIENT_TYPES) recipientType: DelegationRecipientType;
  @UuidField({ nullable: true }) recipientUserId: string | null;
  @UuidField({ nullable: true }) recipientPositionId: string | null;
  /**
   * Increases with every change of the delegation (its row version in the decision area). A
   * consumer keeps the state of the highest version it has seen, so an older event redelivered
   * after a newer one changes nothing. Events without it apply in the order they arrive.
   */
  @IntField({ optional: true, min: 0 }) version?: number;
}

export const DECISION_EVENTS = {
  'evt.decision.delegation.issued': eventEntry(DelegationEvent, 'A delegation was issued.'),
  'evt.decision.delegation.updated': eventEntry(DelegationEvent, 'A delegation changed (recipient, pathways, groups, status).'),
  'evt.decision.delegation.revoked': eventEntry(DelegationEvent, 'A delegation was revoked; it stays revoked.'),
} as const;

/** The delegation subjects, for the areas that project delegations. */
export const DELEGATION_SUBJECTS = ['evt.decision.delegation.issued', 'evt.decision.delegation.updated', 'evt.decision.delegation.revoked'] as const satisfies readonly (keyof typeof DECISION_EVENTS)[];
export type DelegationSubject = (typeof DELEGATION_SUBJECTS)[number];
