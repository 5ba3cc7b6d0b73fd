/**
 * Attestation campaigns, across the decision and actions areas: the decision area opens a campaign
 * and asks the holder of each delegation in scope to confirm or dispute it
 * (evt.decision.attestation.requested, one per delegation); the actions area opens a system action
 * for the holders and, when one of them answers it, reports the answer back
 * (evt.actions.attestation.responded); the decision area records every answer, however it came
 * (evt.decision.attestation.responded), tells the issuer of a disputed delegation
 * (evt.decision.attestation.disputed), and marks the unanswered ones overdue at the due date
 * (evt.decision.attestation.overdue).
 */
import { BooleanField, EnumField, StringField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';
import { DELEGATION_RECIPIENT_TYPES, DelegationRecipientType } from './decision.events';

export const ATTESTATION_OUTCOMES = ['CONFIRMED', 'DISPUTED'] as const;
export type AttestationOutcome = (typeof ATTESTATION_OUTCOMES)[number];

/** Most characters of a holder's comment on an answer. */
export const ATTESTATION_COMMENT_MAX = 2000;

/** What every event of one delegation in a campaign carries. */
export class AttestationItemEvent {
  @UuidField() tenantId: string;
  @UuidField() campaignId: string;
  @StringField({ max: 200 }) campaignName: string;
  @UuidField() delegationId: string;
  @StringField({ max: 20 }) delegationDisplayId: string;
  @UuidField() decisionId: string;
  /** Whom the delegation was given to when the campaign opened (a person, a position, or a person in a position). */
  @EnumField(DELEGATION_RECIPIENT_TYPES) recipientType: DelegationRecipientType;
  @UuidField({ nullable: true }) recipientUserId: string | null;
  @UuidField({ nullable: true }) recipientPositionId: string | null;
  /** Who issued the delegation (the person told when it is disputed). */
  @UuidField({ nullable: true }) issuerUserId: string | null;
  /** Who opened the campaign (the owner of the actions it opens). */
  @UuidField() requestedById: string;
  /** When answers are due (ISO 8601). */
  @StringField({ max: 40 }) dueDate: string;
}

/**
 * evt.decision.attestation.requested: the holders of a delegation are asked to confirm or dispute it
 * (one event per delegation in the campaign). The actions area opens one Attestation action per
 * (campaign, delegation) for `holderUserIds`, due at `dueDate`.
 */
export class AttestationRequestedEvent extends AttestationItemEvent {
  /** Who holds the delegation at the opening: its recipient, or the holders of its position (empty: nobody holds it today). */
  @UuidArrayField({ max: 100 }) holderUserIds: string[];
}

/**
 * evt.decision.attestation.responded: an answer was recorded on a delegation of a campaign (sent
 * to the decision area directly or through the actions area's action); the actions area completes
 * the delegation's Attestation action.
 */
export class AttestationRespondedEvent extends AttestationItemEvent {
  @EnumField(ATTESTATION_OUTCOMES) outcome: AttestationOutcome;
  @StringField({ nullable: true, max: ATTESTATION_COMMENT_MAX }) comment: string | null;
  @UuidField() respondedById: string;
  @StringField({ max: 40 }) respondedAt: string;
}

/**
 * evt.decision.attestation.disputed: a holder disputed a delegation; it is flagged for its issuer
 * (`notifyUserIds`: whom the notifications area tells).
 */
export class AttestationDisputedEvent extends AttestationRespondedEvent {
  @UuidArrayField({ max: 100 }) notifyUserIds: string[];
}

/**
 * evt.decision.attestation.overdue: nobody answered by the due date; `suspended` when the campaign
 * suspended the delegation for it. The actions area cancels the delegation's Attestation action.
 */
export class AttestationOverdueEvent extends AttestationItemEvent {
  @BooleanField() suspended: boolean;
  /** The issuer and the person the delegation was given to (a position's holders: by recipientPositionId): whom the notifications area tells. */
  @UuidArrayField({ max: 100 }) notifyUserIds: string[];
}

/**
 * evt.actions.attestation.responded: a holder answered the Attestation action of a delegation in
 * the actions area (the action is completed); the decision area records the answer.
 */
export class ActionAttestationRespondedEvent {
  @UuidField() tenantId: string;
  @UuidField() actionId: string;
  @UuidField() campaignId: string;
  @UuidField() delegationId: string;
  @EnumField(ATTESTATION_OUTCOMES) outcome: AttestationOutcome;
  @StringField({ nullable: true, max: ATTESTATION_COMMENT_MAX }) comment: string | null;
  @UuidField() respondedById: string;
  @StringField({ max: 40 }) respondedAt: string;
}

export const ATTESTATION_EVENTS = {
  'evt.decision.attestation.requested': eventEntry(AttestationRequestedEvent, 'A campaign asks the holders of a delegation to confirm or dispute it: the actions area opens an Attestation action for them.'),
  'evt.decision.attestation.responded': eventEntry(AttestationRespondedEvent, 'An answer (CONFIRMED or DISPUTED) was recorded on a delegation of a campaign: the actions area completes its Attestation action.'),
  'evt.decision.attestation.disputed': eventEntry(AttestationDisputedEvent, 'A holder disputed a delegation: it is flagged for its issuer (notifyUserIds).'),
  'evt.decision.attestation.overdue': eventEntry(AttestationOverdueEvent, 'Nobody answered for a delegation by the campaign\'s due date (suspended: the campaign suspended it): the actions area cancels its Attestation action.'),
  'evt.actions.attestation.responded': eventEntry(ActionAttestationRespondedEvent, 'A holder answered the Attestation action of a delegation: the decision area records the answer.'),
} as const;

/** The decision area's attestation subjects the actions area follows. */
export const ATTESTATION_STEP_SUBJECTS = ['evt.decision.attestation.requested', 'evt.decision.attestation.responded', 'evt.decision.attestation.overdue'] as const satisfies readonly (keyof typeof ATTESTATION_EVENTS)[];
