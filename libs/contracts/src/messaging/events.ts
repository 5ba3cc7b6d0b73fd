/**
 * Event payload types: what crosses a service boundary on the EVENTS stream. Every event of a
 * tenant-owned record carries `tenantId`; `validateEvent` checks the shape when an event is
 * written to the outbox and again when a consumer takes it.
 */
import { LOGICAL } from './subjects';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `auth.caller.changed`: drop cached callers. Any field set narrows what is dropped; none drops all. */
export interface CallerChangedEvent {
  tenantId?: string;
  userIds?: string[];
  subs?: string[];
}

/** `auth.caller.resolve` request. */
export interface CallerResolveRequest {
  sub: string;
  email?: string;
  /** The tenant the request names; null = the user's active tenant. */
  tenantId: string | null;
}

/** `auth.caller.resolve` answer. */
export type CallerResolveReply =
  | { found: false; reason: string; /** the auth service could not answer (answer is not cached) */ unavailable?: boolean }
  | {
      found: true;
      userId: string;
      email: string;
      name: string;
      tenantId: string | null;
      member: boolean;
      roleIds: string[];
      keys: string[];
    };

/** User summary (spec §2.3) as carried by `evt.auth.user.*`. */
export interface UserSummaryPayload {
  id: string;
  email: string;
  name: string | null;
  displayName: string | null;
  profileImageUrl: string | null;
  mobilePhone: string | null;
  status: string;
}

/** evt.auth.user.created | updated | deleted */
export interface UserEvent {
  tenantId: string;
  user: UserSummaryPayload;
}

/** evt.auth.tenant.created */
export interface TenantCreatedEvent {
  tenantId: string;
  name: string;
}

export const DELEGATION_ISSUER_TYPES = ['ROOT_AUTHORITY', 'PERSONNEL_IN_POSITION', 'POSITION_ONLY', 'SPECIFIC_PERSONNEL'] as const;
export const DELEGATION_RECIPIENT_TYPES = ['PERSONNEL_IN_POSITION', 'POSITION_ONLY', 'SPECIFIC_PERSONNEL'] as const;
export type DelegationIssuerType = (typeof DELEGATION_ISSUER_TYPES)[number];
export type DelegationRecipientType = (typeof DELEGATION_RECIPIENT_TYPES)[number];

/** evt.decision.delegation.issued | updated | revoked: feeds other areas' delegation counts. */
export interface DelegationEvent {
  tenantId: string;
  delegationId: string;
  decisionId: string;
  issuerType: DelegationIssuerType;
  issuerUserId: string | null;
  issuerPositionId: string | null;
  recipientType: DelegationRecipientType;
  recipientUserId: string | null;
  recipientPositionId: string | null;
  pathways: string[];
  groupIds: string[];
  /**
   * Increases with every change of the delegation (e.g. its row version in the decision area).
   * A consumer keeps the state of the highest version it has seen, so an older event redelivered
   * after a newer one changes nothing. Events without it apply in the order they arrive.
   */
  version?: number;
}

export const EVENT_SUBJECTS = {
  tenantCreated: 'evt.auth.tenant.created',
  userCreated: 'evt.auth.user.created',
  userUpdated: 'evt.auth.user.updated',
  userDeleted: 'evt.auth.user.deleted',
  delegationIssued: 'evt.decision.delegation.issued',
  delegationUpdated: 'evt.decision.delegation.updated',
  delegationRevoked: 'evt.decision.delegation.revoked',
  callerChanged: LOGICAL.callerChanged,
} as const;

/** Largest event payload we publish (NATS' default max_payload is 1 MiB). */
export const MAX_EVENT_BYTES = 512 * 1024;

/** Logical subjects the streams carry: evt.<area>.<entity>.<verb>, job.<area>.<name>, auth.caller.changed. */
const SUBJECT_PATTERN = /^(evt\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*|job\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*|auth\.caller\.changed)$/;

export function isPublishableSubject(subject: string): boolean {
  return SUBJECT_PATTERN.test(subject);
}

/** Returns the problems of a payload for its subject; [] when it is valid. */
export function validateEvent(subject: string, payload: unknown): string[] {
  if (!isPublishableSubject(subject)) return [`subject "${subject}" is not evt.<area>.<entity>.<verb>, job.<area>.<name> or auth.caller.changed`];
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return ['payload must be an object'];
  const p = payload as Record<string, unknown>;
  const problems: string[] = [];
  if (subject.startsWith('evt.')) {
    if (typeof p.tenantId !== 'string' || !UUID.test(p.tenantId)) problems.push('tenantId must be a UUID');
  }
  if (subject.startsWith('evt.decision.delegation.')) {
    for (const f of ['delegationId', 'decisionId']) if (typeof p[f] !== 'string') problems.push(`${f} must be a string`);
    for (const f of ['pathways', 'groupIds']) if (!Array.isArray(p[f])) problems.push(`${f} must be an array`);
    if (!(DELEGATION_ISSUER_TYPES as readonly unknown[]).includes(p.issuerType)) problems.push(`issuerType must be one of ${DELEGATION_ISSUER_TYPES.join(', ')}`);
    if (!(DELEGATION_RECIPIENT_TYPES as readonly unknown[]).includes(p.recipientType)) problems.push(`recipientType must be one of ${DELEGATION_RECIPIENT_TYPES.join(', ')}`);
    if (p.version !== undefined && !(typeof p.version === 'number' && Number.isSafeInteger(p.version) && p.version >= 0)) problems.push('version must be a non-negative integer');
  }
  if (subject.startsWith('evt.auth.user.')) {
    const user = p.user as Record<string, unknown> | undefined;
    if (!user || typeof user.id !== 'string') problems.push('user.id must be a string');
  }
  if (subject.startsWith('evt.settings.position.')) {
    const position = p.position as Record<string, unknown> | undefined;
    if (!position || typeof position.id !== 'string') problems.push('position.id must be a string');
    else if (typeof position.positionName !== 'string') problems.push('position.positionName must be a string');
  }
  if (subject.startsWith('evt.settings.decision-role.')) {
    const role = p.decisionRole as Record<string, unknown> | undefined;
    if (!role || typeof role.id !== 'string') problems.push('decisionRole.id must be a string');
    else if (typeof role.roleName !== 'string') problems.push('decisionRole.roleName must be a string');
  }
  if (subject.startsWith('evt.settings.group-type.')) {
    const type = p.groupType as Record<string, unknown> | undefined;
    if (!type || typeof type.id !== 'string') problems.push('groupType.id must be a string');
    else if (typeof type.groupTypeName !== 'string') problems.push('groupType.groupTypeName must be a string');
  }
  if (subject.startsWith('evt.settings.group.')) {
    const group = p.group as Record<string, unknown> | undefined;
    if (!group || typeof group.id !== 'string') problems.push('group.id must be a string');
    else if (typeof group.groupName !== 'string') problems.push('group.groupName must be a string');
  }
  return problems;
}

/** The user summary of spec §2.3, as `evt.auth.user.*` carry it (a superset of `UserSummaryPayload`). */
export interface UserSummary extends UserSummaryPayload {
  positions: { id: string; positionName: string; autoProvisioned: boolean }[];
  primaryOrganizationId: string | null;
  primaryOrganization: {
    id: string;
    groupName: string;
    displayName: string | null;
    tenantGroupTypeId: string | null;
    tenantGroupTypeName: string | null;
    legalName: string | null;
    baseCurrency: string | null;
  } | null;
  manager: { id: string; name: string | null; displayName: string | null; profileImageUrl: string | null } | null;
}

/** evt.auth.user.created | updated | deleted with the complete §2.3 summary. */
export interface UserSummaryEvent {
  tenantId: string;
  user: UserSummary;
}

/** A position as the settings area publishes it (spec §2.6). */
export interface PositionPayload {
  id: string;
  positionName: string;
  /** Display id. */
  positionId: string;
  status: string;
  isDeleted: boolean;
  externalId: string | null;
  isSCIMProvisioned: boolean;
  /** Record ids of the position's groups (not deleted). */
  groupIds?: string[];
  updatedOn?: string;
}

/** evt.settings.position.created | updated | deleted: feeds other areas' position names. */
export interface PositionEvent {
  tenantId: string;
  position: PositionPayload;
}

/** A group as the settings area publishes it (spec §2.5). */
export interface GroupPayload {
  id: string;
  /** Short code (6 letters and digits). */
  groupId: string;
  groupName: string;
  displayName: string | null;
  tenantGroupTypeId: string | null;
  tenantGroupTypeName: string | null;
  status: string;
  isDeleted: boolean;
  externalId: string | null;
  instanceId: string | null;
  legalName?: string | null;
  baseCurrency?: string | null;
  /** Record ids of the group's parents. */
  parentGroupIds?: string[];
}

/** evt.settings.group.created | updated | deleted: feeds other areas' group names. */
export interface GroupEvent {
  tenantId: string;
  group: GroupPayload;
}

/** A decision role as the settings area publishes it (spec §2.7). */
export interface DecisionRolePayload {
  id: string;
  roleName: string;
  status: string;
  isDeleted: boolean;
}

/** evt.settings.decision-role.created | updated | deleted */
export interface DecisionRoleEvent {
  tenantId: string;
  decisionRole: DecisionRolePayload;
}

/** A group type as the settings area publishes it. */
export interface GroupTypePayload {
  id: string;
  groupTypeName: string;
  status: string;
  isDefault: boolean;
  addressEnabled: boolean;
  isDeleted: boolean;
}

/** evt.settings.group-type.created | updated | deleted */
export interface GroupTypeEvent {
  tenantId: string;
  groupType: GroupTypePayload;
}

export const SETTINGS_EVENT_SUBJECTS = {
  positionCreated: 'evt.settings.position.created',
  positionUpdated: 'evt.settings.position.updated',
  positionDeleted: 'evt.settings.position.deleted',
  groupCreated: 'evt.settings.group.created',
  groupUpdated: 'evt.settings.group.updated',
  groupDeleted: 'evt.settings.group.deleted',
  groupTypeCreated: 'evt.settings.group-type.created',
  groupTypeUpdated: 'evt.settings.group-type.updated',
  groupTypeDeleted: 'evt.settings.group-type.deleted',
  decisionRoleCreated: 'evt.settings.decision-role.created',
  decisionRoleUpdated: 'evt.settings.decision-role.updated',
  decisionRoleDeleted: 'evt.settings.decision-role.deleted',
} as const;
