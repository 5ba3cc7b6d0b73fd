/** Events of the decision area that other areas project. */
import { BooleanField, EnumField, IntField, NestedArrayField, NestedField, StringArrayField, StringField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';
import { JobCompletedEvent, JobMessage } from './jobs.events';

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
  /** The delegation's status after the change (DRAFT ... DELETED); a consumer stops counting one that can no longer come back (DELEGATION_ENDED_STATUSES). */
  @StringField({ optional: true, max: 20 }) status?: string;
  /** The people the change concerns (issuer, recipient, approvers): whom the notifications and actions areas tell. */
  @UuidArrayField({ optional: true, max: 1000 }) notifyUserIds?: string[];
  /** The delegation's display id ("10000"), for the areas that show it (actions). */
  @StringField({ optional: true, max: 20 }) delegationDisplayId?: string;
  /** The documents linked to the delegation (the document area counts them). */
  @UuidArrayField({ optional: true, max: 1000 }) documentIds?: string[];
  /** What a PENDING delegation waits for: APPROVAL (notifyUserIds: the approvers) or ACCEPTANCE (its recipient); null otherwise. */
  @StringField({ nullable: true, max: 20 }) pendingStage?: string | null;
  /** When the delegation expires (ISO 8601), null when it does not: the notifications area warns its recipient 7 days before. */
  @StringField({ nullable: true, max: 40 }) expirationDate?: string | null;
  /** The limits the delegation holds (the matrix area shows them in its grid). */
  @NestedArrayField(() => DecisionAuthorityPayload, { optional: true, max: 50 }) authorities?: DecisionAuthorityPayload[];
  /** Whether a change of the organisation or of a parent made the delegation invalid (the matrix grid marks it). */
  @BooleanField({ optional: true }) isInvalid?: boolean;
  /**
   * The decision roles set on the delegation as of `version`, all of them (those set while it was a
   * DRAFT too), whatever their status: the matrix area's role matrices filter by them. Absent in
   * messages published before the field existed: a consumer then keeps the roles it knows.
   */
  @NestedArrayField(() => DelegationRolePayload, { optional: true, max: 1000, description: 'Every decision role set on the delegation as of version (those set while a DRAFT too); absent in messages published before the field existed' }) roles?: DelegationRolePayload[];
}

/**
 * One decision role on a delegation as the delegation events carry it (the names of the decision
 * area's role mapping, DelegationRoleView).
 */
export class DelegationRolePayload {
  @UuidField() roleId: string;
  @StringField({ max: 20, description: 'ACTIVE or INACTIVE' }) roleStatus: string;
  /**
   * The evt.decision.delegation.role-assigned that last set the role (a uuidv7, so later assignments
   * compare greater): a consumer of both subjects keeps, per delegation and role, the state of the
   * greatest assignment. Null for a role last set before assignments were recorded.
   */
  @UuidField({ nullable: true, description: 'The role-assigned event that last set the role (uuidv7); null when set before assignments were recorded' }) assignmentId: string | null;
}

/**
 * evt.decision.delegation.requested: someone asked the holder of a delegation for a redelegation
 * (POST /decision/v1/delegations/delegation-request-action); the actions area opens the
 * "Delegation Request" action from it, owned by `actionOwnerId`, assigned to `actionAssigneeIds`.
 */
export class DelegationRequestEvent {
  @UuidField() tenantId: string;
  /** One id per request: the actions area opens one action per request id, however often it is delivered. */
  @UuidField() requestId: string;
  @UuidField() delegationId: string;
  @StringField({ max: 20 }) delegationDisplayId: string;
  @UuidField() decisionId: string;
  @StringField({ max: 200 }) actionName: string;
  @UuidField() actionOwnerId: string;
  @UuidArrayField({ max: 100 }) actionAssigneeIds: string[];
  @UuidField() requestedById: string;
}

/** Statuses a delegation never leaves: a projection treats them as it treats a revoked one. */
export const DELEGATION_ENDED_STATUSES = ['REVOKED', 'REJECTED', 'EXPIRED', 'ARCHIVED', 'DELETED'] as const;

/** Whether a delegation event ends the delegation for good (revoked, or any status in DELEGATION_ENDED_STATUSES): what a projection's terminal state follows. */
export function endsDelegation(subject: string, event: Pick<DelegationEvent, 'status'>): boolean {
  return subject === 'evt.decision.delegation.revoked' || (DELEGATION_ENDED_STATUSES as readonly (string | undefined)[]).includes(event.status);
}

export const DECISION_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];
export const AUTHORITY_LIMIT_VALUE_TYPES = ['Currency', 'Number', 'Percentage', 'Time', 'Authorized'] as const;
export type AuthorityLimitValueType = (typeof AUTHORITY_LIMIT_VALUE_TYPES)[number];
export const AUTHORITY_LIMIT_OPERATORS = ['<', '<='] as const;

/** One limit of a decision as its events carry it. */
export class DecisionAuthorityPayload {
  @UuidField() authorityTypeId: string;
  @IntField({ min: 0 }) authorityTypeOrder: number;
  @StringField({ max: 20 }) authorityLimit: string;
  @EnumField(AUTHORITY_LIMIT_VALUE_TYPES) authorityLimitValueType: string;
  @StringField({ nullable: true, max: 2 }) authorityLimitOperator: string | null;
  @StringField({ nullable: true, max: 40, description: 'A decimal string, "Unlimited", or null for Authorized' }) authorityLimitValue: string | null;
  @StringField({ nullable: true, max: 10 }) authorityLimitValueUnit: string | null;
}

/** A decision as the decision area publishes it (spec §2.9, what other areas project). */
export class DecisionPayload {
  @UuidField() id: string;
  @StringField({ max: 20 }) decisionDisplayId: string;
  @StringField({ max: 150 }) name: string;
  @EnumField(DECISION_STATUSES) status: string;
  @UuidField({ nullable: true }) sectionId: string | null;
  @UuidField({ nullable: true }) categoryId: string | null;
  @UuidField({ nullable: true }) ownerId: string | null;
  @BooleanField() delegable: boolean;
  @StringArrayField({ max: 10, maxLength: 50 }) delegationPathway: string[];
  @UuidArrayField({ max: 500 }) groupIds: string[];
  @NestedArrayField(() => DecisionAuthorityPayload, { max: 50 }) authorities: DecisionAuthorityPayload[];
  @BooleanField() isDeleted: boolean;
  /** The documents linked to the decision (the document area counts them). */
  @UuidArrayField({ optional: true, max: 1000 }) documentIds?: string[];
  /** Increases with every change of the decision: a consumer keeps the newest state. */
  @IntField({ min: 0 }) version: number;
}

/** evt.decision.decision.created | updated | deleted | restored */
export class DecisionEvent {
  @UuidField() tenantId: string;
  @NestedField(() => DecisionPayload) decision: DecisionPayload;
}

/**
 * evt.decision.delegation.role-assigned: a decision role (Informed, Consulted, ...) was set on a
 * delegation, or changed. `designeeUserIds` are the people it names now (a position's holders);
 * the actions area opens one Decision Role Acceptance action per `assignmentId` for them (owned by
 * the delegation's issuer) and cancels the one of the role's earlier assignment; an INACTIVE role
 * opens nothing.
 */
export class DelegationRoleEvent {
  @UuidField() tenantId: string;
  /**
   * One id per change of the role on the delegation, a uuidv7: a later change of the role on the
   * delegation has a greater one. The delegation events name the assignment each role stands at
   * (DelegationRolePayload.assignmentId), so a consumer of both orders them by it.
   */
  @UuidField() assignmentId: string;
  @UuidField() delegationId: string;
  @StringField({ max: 20 }) delegationDisplayId: string;
  @UuidField() decisionId: string;
  @UuidField() roleId: string;
  @StringField({ max: 50 }) roleName: string;
  @StringField({ max: 20, description: 'ACTIVE or INACTIVE' }) roleStatus: string;
  @UuidArrayField({ max: 1000 }) designeeUserIds: string[];
  @UuidField({ nullable: true }) issuerUserId: string | null;
}

/**
 * evt.decision.currency-rates.replaced: the tenant's currency rates were replaced (PUT
 * /decision/v1/authority/currency-rates); carries the currencies that now have a rate, whole, so the
 * auth area can answer the tenant's currencies (GET /auth/v1/user/tenant/{tenantId}/currencies).
 */
export class CurrencyRatesEvent {
  @UuidField() tenantId: string;
  @StringArrayField({ max: 500, maxLength: 3, description: 'ISO 4217 codes of the currencies with at least one rate, sorted, each once' }) currencies: string[];
  /** Increases with every replacement of the tenant's rates (microseconds of the change, taken under the tenant's lock): an older message changes nothing. */
  @IntField({ min: 0 }) version: number;
}

export const DECISION_EVENTS = {
  'evt.decision.currency-rates.replaced': eventEntry(CurrencyRatesEvent, "A tenant's currency rates were replaced; carries the currencies that have a rate."),
  'evt.decision.decision.created': eventEntry(DecisionEvent, 'A decision was created (also each copy of a bulk duplicate).'),
  'evt.decision.decision.updated': eventEntry(DecisionEvent, 'A decision changed (fields, status, groups, authorities, documents).'),
  'evt.decision.decision.deleted': eventEntry(DecisionEvent, 'A decision was deleted (softly).'),
  'evt.decision.decision.restored': eventEntry(DecisionEvent, 'A deleted decision was brought back.'),
  'evt.decision.job.completed': eventEntry(JobCompletedEvent, 'A bulk job of the decision area ended (COMPLETED, COMPLETED_WITH_ERRORS or FAILED).'),
  'job.decision.bulk-duplicate': eventEntry(JobMessage, 'Run a bulk duplicate of decisions (the job row holds the ids).'),
  'job.decision.bulk-link-documents': eventEntry(JobMessage, 'Run a bulk link of documents to delegations (the job row holds the delegation ids, its params the document ids).'),
  'job.decision.bulk-reassign-recipients': eventEntry(JobMessage, 'Run a bulk reassignment of delegations to a new recipient (the job row holds the delegation ids, its params the recipient).'),
  'evt.decision.delegation.issued': eventEntry(DelegationEvent, 'A delegation was issued.'),
  'evt.decision.delegation.updated': eventEntry(DelegationEvent, 'A delegation changed (recipient, pathways, groups, status).'),
  'evt.decision.delegation.revoked': eventEntry(DelegationEvent, 'A delegation was revoked; it stays revoked.'),
  'evt.decision.delegation.pending': eventEntry(DelegationEvent, 'A delegation awaits approval or acceptance (notifyUserIds: who must act).'),
  'evt.decision.delegation.accepted': eventEntry(DelegationEvent, 'A recipient accepted a delegation.'),
  'evt.decision.delegation.rejected': eventEntry(DelegationEvent, 'A delegation was rejected by its recipient or denied by an approver.'),
  'evt.decision.delegation.suspended': eventEntry(DelegationEvent, 'A delegation was suspended.'),
  'evt.decision.delegation.expired': eventEntry(DelegationEvent, 'A delegation reached its expiration date.'),
  'evt.decision.delegation.invalidated': eventEntry(DelegationEvent, 'A change of the organisation or of a parent made a live delegation invalid.'),
  'evt.decision.delegation.role-assigned': eventEntry(DelegationRoleEvent, 'A decision role was set or changed on a delegation: the actions area asks its designees to accept it.'),
  'evt.decision.delegation.requested': eventEntry(DelegationRequestEvent, 'Someone asked the holder of a delegation for a redelegation: the actions area opens a "Delegation Request" action.'),
} as const;

/**
 * The delegation subjects that carry its state, for the areas that project delegations: every change
 * of a delegation that has left DRAFT publishes one of them (issued, updated with its status, revoked).
 */
export const DELEGATION_SUBJECTS = ['evt.decision.delegation.issued', 'evt.decision.delegation.updated', 'evt.decision.delegation.revoked'] as const satisfies readonly (keyof typeof DECISION_EVENTS)[];
/** The subjects that tell people what happened to a delegation (notifications, actions), published beside the state subject. */
export const DELEGATION_NOTICE_SUBJECTS = [
  'evt.decision.delegation.pending',
  'evt.decision.delegation.accepted',
  'evt.decision.delegation.rejected',
  'evt.decision.delegation.suspended',
  'evt.decision.delegation.expired',
  'evt.decision.delegation.invalidated',
] as const satisfies readonly (keyof typeof DECISION_EVENTS)[];
export type DelegationNoticeSubject = (typeof DELEGATION_NOTICE_SUBJECTS)[number];
export type DelegationSubject = (typeof DELEGATION_SUBJECTS)[number];

/** The decision subjects, for the areas that project decisions. */
export const DECISION_SUBJECTS = ['evt.decision.decision.created', 'evt.decision.decision.updated', 'evt.decision.decision.deleted', 'evt.decision.decision.restored'] as const satisfies readonly (keyof typeof DECISION_EVENTS)[];
export type DecisionSubject = (typeof DECISION_SUBJECTS)[number];
