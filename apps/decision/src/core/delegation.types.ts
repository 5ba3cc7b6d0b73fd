/**
 * The delegation model's types and vocabularies, with no code: the statuses and what they mean, a
 * limit, a delegation as the rules see it, what an issuer proposes, the organisation a check reads,
 * a broken rule, and the rows the model's statements answer. Every file of the decision area that
 * speaks of delegations takes its words from here.
 */
import { AuthorityLimitValueType, DelegationRecipientType, DelegationRolePayload } from '@ddm/contracts';
import type { StoredDelegationView } from './delegation.view';

export const DELEGATION_STATUSES = ['DRAFT', 'PENDING', 'ISSUED', 'ACCEPTED', 'REJECTED', 'SUSPENDED', 'REVOKED', 'EXPIRED', 'ARCHIVED', 'DELETED'] as const;
export type DelegationStatus = (typeof DELEGATION_STATUSES)[number];
/** Statuses in which a delegation gives authority (and may be redelegated from, when effective and valid). */
export const HOLDING_STATUSES: readonly DelegationStatus[] = ['ISSUED', 'ACCEPTED'];
/** Statuses that still count as a delegation of the decision (its `delegations` count, the 409 on deleting it). */
export const LIVE_STATUSES: readonly DelegationStatus[] = ['DRAFT', 'PENDING', 'ISSUED', 'ACCEPTED', 'SUSPENDED'];
/** What a PENDING delegation waits for. */
export type PendingStage = 'APPROVAL' | 'ACCEPTANCE';

export const INVALID_FIELDS = ['Recipient', 'Issuer', 'Pathway', 'Authority', 'Groups', 'Parent'] as const;
export type InvalidField = (typeof INVALID_FIELDS)[number];

export const DELEGATION_ACTIONS = ['issue', 'approve', 'deny', 'accept', 'reject', 'suspend', 'resume', 'revoke', 'archive'] as const;
export type DelegationAction = (typeof DELEGATION_ACTIONS)[number];


/** A limit (of a decision, or the cap a parent hands on): values are decimal strings, "Unlimited", or null for Authorized. */
export interface Limit {
  authorityTypeId: string;
  authorityLimitValueType: AuthorityLimitValueType;
  authorityLimitOperator: '<' | '<=' | null;
  authorityLimitValue: string | null;
  authorityLimitValueUnit: string | null;
}

/** A delegation's limit: what it holds, and whether and up to what its recipient may hand it on. */
export interface DelegationLimit extends Limit {
  redelegable: boolean;
  /** The most a redelegation may hold (decimal or "Unlimited"); null: the limit's own value. */
  redelegationLimitValue: string | null;
  redelegationLimitValueUnit: string | null;
  /** The issuer set this limit by hand (informational: it is still bounded by the parent or the decision). */
  isLimitOverridden?: boolean;
}

/**
 * A rule broken. `rule` names it, `field` the request field (`delegationAuthorities.0.authorityLimitValue`,
 * `delegationPathway`, `delegationGroups.1.groupId`, `expirationDate`, `delegationRecipients.0.recipientUserId`,
 * `parentDelegationId`, `decisionId`), `status` the answer a request gets (403 when the caller may not,
 * 400 when what they ask for is out of bounds), `invalidField` what a live delegation breaking it is
 * marked with, and `message` says both rule and field in words.
 */
export interface Violation {
  rule: 'parent-held' | 'parent-live' | 'authority' | 'pathway' | 'groups' | 'expiration' | 'reach' | 'root' | 'issuer' | 'recipient';
  field: string;
  status: 400 | 403;
  invalidField: InvalidField;
  message: string;
}

/** The organisation as far as a check needs it (the service loads the part it needs from its projections). */
export interface OrgView {
  /** Whether the user is an ACTIVE member of the tenant. */
  isActiveUser(userId: string): boolean;
  /** A user's manager (auth's `manager`), null if none. */
  managerOf(userId: string): string | null;
  /** The positions a user holds today. */
  positionsOf(userId: string): readonly string[];
  /** The users holding a position today. */
  holdersOf(positionId: string): readonly string[];
  /** Whether the position exists and is ACTIVE. */
  isActivePosition(positionId: string): boolean;
  /** A user's groups: their own group memberships plus the groups of the positions they hold. */
  groupsOfUser(userId: string): readonly string[];
  /** A position's groups. */
  groupsOfPosition(positionId: string): readonly string[];
  /** The parents of a group in the settings hierarchy (a group may have several; none at the top or unknown). */
  parentGroupsOf(groupId: string): readonly string[];
  /** Whether the group exists and is not deleted. */
  isLiveGroup(groupId: string): boolean;
}

/** Who a delegation is given to. */
export interface Recipient {
  recipientType: DelegationRecipientType;
  recipientUserId: string | null;
  recipientPositionId: string | null;
}

/** A delegation as the rules see it (a parent, or a live delegation checked for invalidation). */
export interface DelegationState extends Recipient {
  status: DelegationStatus;
  effectiveDate: Date;
  /** null: no expiration. */
  expirationDate: Date | null;
  isInvalid: boolean;
  issuerType: 'ROOT_AUTHORITY' | 'PERSONNEL_IN_POSITION' | 'POSITION_ONLY' | 'SPECIFIC_PERSONNEL';
  issuerUserId: string | null;
  issuerPositionId: string | null;
  pathways: readonly string[];
  groupIds: readonly string[];
  authorities: readonly DelegationLimit[];
}

/** The decision a delegation hands on. */
export interface DecisionScope {
  status: 'DRAFT' | 'PUBLISHED' | 'ARCHIVED';
  delegable: boolean;
  pathways: readonly string[];
  groupIds: readonly string[];
  authorities: readonly Limit[];
}

/** What an issuer asks for (one request; each recipient gets its own delegation). */
export interface ProposedDelegation {
  recipientType: DelegationRecipientType;
  recipients: readonly { recipientUserId: string | null; recipientPositionId: string | null }[];
  pathways: readonly string[];
  groupIds: readonly string[];
  authorities: readonly DelegationLimit[];
  effectiveDate: Date;
  expirationDate: Date | null;
}

/** A delegation row as the rules read it (RULE_COLUMNS). */
export interface DelegationRuleRow {
  id: string;
  decision_id: string;
  parent_delegation_id: string | null;
  depth: number;
  status: DelegationState['status'];
  effective_date: Date;
  expiration_date: Date | null;
  is_invalid: boolean;
  issuer_type: DelegationState['issuerType'];
  issuer_user_id: string | null;
  issuer_position_id: string | null;
  recipient_type: DelegationState['recipientType'];
  recipient_user_id: string | null;
  recipient_position_id: string | null;
  delegation_pathway: string[];
  group_ids: string[];
  delegation_authorities: DelegationLimit[];
  accepted_date: Date | null;
  pending_stage: 'APPROVAL' | 'ACCEPTANCE' | null;
}

/** A delegation of a subtree, `rel` levels below the changed one (0: itself). */
export type SubtreeRow = DelegationRuleRow & { delegation_display_id: string; rel: number };

/** A delegation a proposed change would make invalid, with the fields it newly breaks. */
export interface AffectedDelegation {
  id: string;
  delegationDisplayId: string;
  depth: number;
  invalidFields: InvalidField[];
}

/** A delegation as a change recorded it: its version and stored view. */
export interface DelegationRow {
  version: number;
  view: StoredDelegationView;
  /** The roles set on it (reviseDelegations reads them in the same statement), what its events carry. */
  roles?: DelegationRolePayload[];
}

/** Who acts on a delegation: a request's caller, or the requester a job acts for (with the keys they held when asking). */
export interface Manager {
  tenantId: string;
  userId: string;
  keys: ReadonlySet<string>;
}

/** What changed: the delegations naming any of these (as issuer or recipient, in scope, of the decision), and their subtrees. */
export interface RevalidationScope {
  userIds?: readonly string[];
  positionIds?: readonly string[];
  groupIds?: readonly string[];
  decisionIds?: readonly string[];
  delegationIds?: readonly string[];
}

/** A delegation whose invalid fields a check changed: what it had, and what it has now (none: valid). */
export interface ValidityChange {
  id: string;
  before: string[];
  after: string[];
}
