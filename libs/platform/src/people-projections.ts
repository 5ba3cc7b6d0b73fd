/**
 * The two projections nearly every area keeps: auth's members (a row per tenant and user) and
 * settings' groups. Each column is mapped from its event once, here; an area names the columns its
 * table has (`userProjection({ ..., columns: ['email', 'name', 'status'] })`) and, for a column its
 * table shapes its own way, gives that value itself (`extra`).
 */
import { EventMessageOf, EventPayload } from '@ddm/contracts';
import type { Tx } from './queryable';
import { ProjectionSpec } from './projection';

export const USER_SUBJECTS = ['evt.auth.user.created', 'evt.auth.user.updated', 'evt.auth.user.deleted'] as const;
export type UserSubject = (typeof USER_SUBJECTS)[number];
export type UserPayload = EventPayload<UserSubject>['user'];

export const GROUP_SUBJECTS = ['evt.settings.group.created', 'evt.settings.group.updated', 'evt.settings.group.deleted'] as const;
export type GroupSubject = (typeof GROUP_SUBJECTS)[number];
export type GroupPayload = EventPayload<GroupSubject>['group'];

/** A member's columns, by the name every area's user_projection gives them. */
const USER_COLUMNS = {
  email: (u: UserPayload) => u.email,
  name: (u: UserPayload) => u.name,
  display_name: (u: UserPayload) => u.displayName,
  profile_image_url: (u: UserPayload) => u.profileImageUrl,
  mobile_phone: (u: UserPayload) => u.mobilePhone,
  status: (u: UserPayload) => u.status,
  /** The positions as the user summary shows them (spec §2.3: id, positionName, autoProvisioned). */
  positions: (u: UserPayload) => JSON.stringify((u.positions ?? []).map((p) => ({ id: p.id, positionName: p.positionName, autoProvisioned: p.autoProvisioned }))),
  position_ids: (u: UserPayload) => (u.positions ?? []).map((p) => p.id),
  /** The person's own groups (those of the positions they hold come with the positions). */
  group_ids: (u: UserPayload) => u.groupIds ?? [],
  manager_id: (u: UserPayload) => u.manager?.id ?? null,
  manager: (u: UserPayload) => (u.manager ? JSON.stringify(u.manager) : null),
  primary_organization_id: (u: UserPayload) => u.primaryOrganizationId ?? u.primaryOrganization?.id ?? null,
  primary_organization: (u: UserPayload) => (u.primaryOrganization ? JSON.stringify(u.primaryOrganization) : null),
  permission_keys: (u: UserPayload) => u.permissionKeys ?? [],
} satisfies Record<string, (u: UserPayload) => unknown>;
export type UserColumn = keyof typeof USER_COLUMNS;

/** A group's columns, by the name every area's group_projection gives them. */
const GROUP_COLUMNS = {
  group_code: (g: GroupPayload) => g.groupId,
  group_name: (g: GroupPayload) => g.groupName,
  display_name: (g: GroupPayload) => g.displayName,
  tenant_group_type_id: (g: GroupPayload) => g.tenantGroupTypeId,
  tenant_group_type_name: (g: GroupPayload) => g.tenantGroupTypeName,
  legal_name: (g: GroupPayload) => g.legalName ?? null,
  base_currency: (g: GroupPayload) => g.baseCurrency ?? null,
  status: (g: GroupPayload) => g.status,
  is_deleted: (g: GroupPayload) => g.isDeleted,
  parent_group_ids: (g: GroupPayload) => g.parentGroupIds ?? [],
  external_id: (g: GroupPayload) => g.externalId,
  instance_id: (g: GroupPayload) => g.instanceId,
} satisfies Record<string, (g: GroupPayload) => unknown>;
export type GroupColumn = keyof typeof GROUP_COLUMNS;

/** The named columns of a member, as auth's event tells them. */
export function userColumns<C extends UserColumn>(user: UserPayload, columns: readonly C[]): Record<C, unknown> {
  return Object.fromEntries(columns.map((c) => [c, USER_COLUMNS[c](user)])) as Record<C, unknown>;
}

/** The named columns of a group, as settings' event tells them. */
export function groupColumns<C extends GroupColumn>(group: GroupPayload, columns: readonly C[]): Record<C, unknown> {
  return Object.fromEntries(columns.map((c) => [c, GROUP_COLUMNS[c](group)])) as Record<C, unknown>;
}

interface PeopleProjection<S extends UserSubject | GroupSubject, C extends string, P> {
  /** The durable consumer's name (`<area>-auth-users`, `<area>-settings-groups`). */
  name: string;
  /** Schema-qualified table. */
  table: string;
  columns: readonly C[];
  /** Columns the area's table shapes its own way, from the same payload. */
  extra?(payload: P, message: EventMessageOf<S>): Record<string, unknown>;
  afterChange?(tx: Tx, message: EventMessageOf<S>): Promise<void>;
}

/** A service's projection of auth's members (a row per tenant and user, key `id`). */
export function userProjection(spec: PeopleProjection<UserSubject, UserColumn, UserPayload>): ProjectionSpec<UserSubject> {
  return {
    name: spec.name,
    subjects: USER_SUBJECTS,
    table: spec.table,
    key: 'id',
    perTenant: true,
    row: (message) => {
      const { tenantId, user } = message.payload;
      return { id: user.id, tenantId, values: { ...userColumns(user, spec.columns), ...spec.extra?.(user, message) } };
    },
    afterChange: spec.afterChange,
  };
}

/** A service's projection of settings' groups (key `id`, pinned to its tenant). */
export function groupProjection(spec: PeopleProjection<GroupSubject, GroupColumn, GroupPayload>): ProjectionSpec<GroupSubject> {
  return {
    name: spec.name,
    subjects: GROUP_SUBJECTS,
    table: spec.table,
    key: 'id',
    row: (message) => {
      const { tenantId, group } = message.payload;
      return { id: group.id, tenantId, values: { ...groupColumns(group, spec.columns), ...spec.extra?.(group, message) } };
    },
    afterChange: spec.afterChange,
  };
}
