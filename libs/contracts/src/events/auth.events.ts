/** Events of the auth area: tenants, users (the §2.3 summary other areas project) and caller invalidation. */
import { LOGICAL } from '../messaging/subjects';
import { BooleanField, EnumField, IntField, NestedArrayField, NestedField, StringArrayField, StringField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';

/** evt.auth.tenant.created */
export class TenantCreatedEvent {
  @UuidField() tenantId: string;
  @StringField({ max: 200 }) name: string;
}

/**
 * evt.auth.tenant.settings-updated: the tenant's delegation settings after a change, whole (a
 * consumer replaces what it holds, it never merges).
 */
export class TenantSettingsEvent {
  @UuidField() tenantId: string;
  /** Issued delegations wait for the recipient's acceptance. */
  @BooleanField() delegationAcceptanceRequired: boolean;
  /** Issued delegations wait for an approval. */
  @BooleanField() delegationApprovalRequired: boolean;
  /** ISO 4217 code (USD, EUR, ...). */
  @StringField({ max: 3 }) baseCurrency: string;
  /**
   * Increases with every change of the tenant's settings (1 for the first). A consumer keeps the
   * settings of the highest version it has seen, so an older event redelivered after a newer one
   * changes nothing.
   */
  @IntField({ min: 0 }) version: number;
}

/** A position of the user (spec §2.3 `positions`). */
export class UserSummaryPosition {
  @UuidField() id: string;
  @StringField({ max: 200 }) positionName: string;
  @BooleanField() autoProvisioned: boolean;
}

/** The user's primary organisation (spec §2.3 `primaryOrganization`). */
export class UserSummaryOrganization {
  @UuidField() id: string;
  @StringField({ max: 200 }) groupName: string;
  @StringField({ nullable: true, max: 200 }) displayName: string | null;
  @UuidField({ nullable: true }) tenantGroupTypeId: string | null;
  @StringField({ nullable: true, max: 200 }) tenantGroupTypeName: string | null;
  @StringField({ nullable: true, max: 200 }) legalName: string | null;
  @StringField({ nullable: true, max: 10 }) baseCurrency: string | null;
}

/** The user's manager (spec §2.3 `manager`). */
export class UserSummaryManager {
  @UuidField() id: string;
  @StringField({ nullable: true, max: 200 }) name: string | null;
  @StringField({ nullable: true, max: 200 }) displayName: string | null;
  @StringField({ nullable: true, max: 2048 }) profileImageUrl: string | null;
}

/** USER statuses as a membership carries them (DELETED: the membership was deleted). */
export const USER_SUMMARY_STATUSES = ['ACTIVE', 'INACTIVE', 'INVITED', 'DELETED'] as const;

/** The user summary of spec §2.3, as `evt.auth.user.*` carry it. */
export class UserSummary {
  @UuidField() id: string;
  @StringField({ max: 320 }) email: string;
  @StringField({ nullable: true, max: 200 }) name: string | null;
  @StringField({ nullable: true, max: 200 }) displayName: string | null;
  @StringField({ nullable: true, max: 2048 }) profileImageUrl: string | null;
  @StringField({ nullable: true, max: 50 }) mobilePhone: string | null;
  @EnumField(USER_SUMMARY_STATUSES) status: string;
  @NestedArrayField(() => UserSummaryPosition, { optional: true, max: 1000 }) positions?: UserSummaryPosition[];
  @UuidField({ nullable: true }) primaryOrganizationId?: string | null;
  @NestedField(() => UserSummaryOrganization, { nullable: true }) primaryOrganization?: UserSummaryOrganization | null;
  @NestedField(() => UserSummaryManager, { nullable: true }) manager?: UserSummaryManager | null;
  /** The groups the user is a member of in auth (not those of their positions). */
  @UuidArrayField({ optional: true, max: 1000 }) groupIds?: string[];
  /** The relationship keys the user's roles grant in the tenant (the document area checks a named reviewer or approver against them). */
  @StringArrayField({ optional: true, max: 100, maxLength: 100 }) keys?: string[];
}

/** evt.auth.user.created | updated | deleted with the §2.3 summary of the user in the tenant. */
export class UserSummaryEvent {
  @UuidField() tenantId: string;
  @NestedField(() => UserSummary) user: UserSummary;
}

/**
 * `auth.caller.changed`: drop cached callers. Any field set narrows what is dropped; none drops
 * all. Not a tenant's domain event, so `tenantId` is optional.
 */
export class CallerChangedEvent {
  @UuidField({ optional: true }) tenantId?: string;
  @UuidArrayField({ optional: true, max: 10_000 }) userIds?: string[];
  /** Identity-provider subjects (`sub` claims). */
  @StringArrayField({ optional: true, max: 10_000, maxLength: 255 }) subs?: string[];
}

export const AUTH_EVENTS = {
  'evt.auth.tenant.created': eventEntry(TenantCreatedEvent, 'A tenant was created (settings gives it its default group types).'),
  'evt.auth.tenant.settings-updated': eventEntry(
    TenantSettingsEvent,
    "A tenant's delegation settings changed (acceptance, approval, base currency); carries them whole, with a version per tenant.",
  ),
  'evt.auth.user.created': eventEntry(UserSummaryEvent, 'A user became a member of the tenant (invited); carries the §2.3 summary.'),
  'evt.auth.user.updated': eventEntry(UserSummaryEvent, "A user's summary in the tenant changed (names, status, positions, primary organisation, manager)."),
  'evt.auth.user.deleted': eventEntry(UserSummaryEvent, "A user's membership of the tenant was deleted (status DELETED)."),
  [LOGICAL.callerChanged]: eventEntry(CallerChangedEvent, 'Cached callers must be dropped (roles, keys or memberships changed). Also sent on core NATS at once.'),
} as const;

/** The auth area's subjects that the registry's EVENT_SUBJECTS does not name. */
export const AUTH_EVENT_SUBJECTS = {
  tenantSettingsUpdated: 'evt.auth.tenant.settings-updated',
} as const satisfies Record<string, keyof typeof AUTH_EVENTS>;
