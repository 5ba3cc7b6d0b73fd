import { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { GroupAssignment, keysBeyondCaller } from './user.rules';

/** The ids a change names, checked against the tenant in one statement. */
export interface Refs {
  roleIds: string[];
  positionIds: string[];
  groupIds: string[];
  managerIds: string[];
}

export interface KnownRefs {
  /** Live roles of the tenant and the keys each grants. */
  roles: Map<string, string[]>;
  positions: Set<string>;
  groups: Set<string>;
  /** Users with a live membership of the tenant. */
  members: Set<string>;
}

export interface LinkProblem {
  kind: 'not_found' | 'forbidden';
  field: string;
  message: string;
}

/** Which of the named roles, positions (projection), groups (projection) and managers the tenant knows. */
export async function loadRefs(m: EntityManager, tenantId: string, refs: Refs): Promise<KnownRefs> {
  const rows: { kind: string; id: string; keys: string[] | null }[] = await m.query(
    `SELECT 'role' AS kind, r.id, coalesce(array_agg(rm.relationship_key_name) FILTER (WHERE rm.is_enabled), '{}') AS keys
       FROM auth.tenant_roles r LEFT JOIN auth.role_mappings rm ON rm.role_id = r.id
      WHERE r.tenant_id = $1 AND r.id = ANY($2::uuid[]) AND NOT r.is_deleted GROUP BY r.id
     UNION ALL
     SELECT 'position', p.id, NULL FROM auth.position_projection p WHERE p.tenant_id = $1 AND p.id = ANY($3::uuid[]) AND NOT p.is_deleted
     UNION ALL
     SELECT 'group', g.id, NULL FROM auth.group_projection g WHERE g.tenant_id = $1 AND g.id = ANY($4::uuid[]) AND NOT g.is_deleted
     UNION ALL
     SELECT 'member', tu.user_id, NULL FROM auth.tenant_users tu WHERE tu.tenant_id = $1 AND tu.user_id = ANY($5::uuid[]) AND NOT tu.is_deleted`,
    [tenantId, unique(refs.roleIds), unique(refs.positionIds), unique(refs.groupIds), unique(refs.managerIds)],
  );
  const known: KnownRefs = { roles: new Map(), positions: new Set(), groups: new Set(), members: new Set() };
  for (const r of rows) {
    if (r.kind === 'role') known.roles.set(r.id, r.keys ?? []);
    else if (r.kind === 'position') known.positions.add(r.id);
    else if (r.kind === 'group') known.groups.add(r.id);
    else known.members.add(r.id);
  }
  return known;
}

/**
 * The first problem of one user's links: an id the tenant does not know (another tenant's id is
 * unknown too) or roles granting keys the caller does not hold.
 */
export function linkProblem(
  item: { roleIds?: string[] | null; positionIds?: string[] | null; groups?: GroupAssignment[] | null; managerId?: string | null },
  known: KnownRefs,
  callerKeys: ReadonlySet<string>,
): LinkProblem | null {
  const missingRole = item.roleIds?.find((id) => !known.roles.has(id));
  if (missingRole) return { kind: 'not_found', field: 'roleIds', message: `Role ${missingRole} not found in this tenant` };
  const missingPosition = item.positionIds?.find((id) => !known.positions.has(id));
  if (missingPosition) return { kind: 'not_found', field: 'positionIds', message: `Position ${missingPosition} not found in this tenant` };
  const missingGroup = item.groups?.find((g) => !known.groups.has(g.groupId));
  if (missingGroup) return { kind: 'not_found', field: 'groups', message: `Group ${missingGroup.groupId} not found in this tenant` };
  if (item.managerId && !known.members.has(item.managerId)) return { kind: 'not_found', field: 'managerId', message: `Manager ${item.managerId} not found in this tenant` };
  const beyond = keysBeyondCaller((item.roleIds ?? []).flatMap((id) => known.roles.get(id) ?? []), callerKeys);
  if (beyond.length) return { kind: 'forbidden', field: 'roleIds', message: `You cannot grant permissions you do not hold: ${beyond.join(', ')}` };
  return null;
}

export interface UserLinks {
  userId: string;
  /** undefined: leave as they are; an array: exactly these from now on. */
  roleIds?: string[];
  positionIds?: string[];
  groups?: GroupAssignment[];
}

/**
 * Sets the roles, positions and groups of users in a tenant, set-based (a few statements for any
 * number of users). Links that go are soft-deleted; a link that comes back is revived.
 */
export async function replaceLinks(m: EntityManager, tenantId: string, links: readonly UserLinks[]): Promise<void> {
  const roleUsers = links.filter((l) => l.roleIds !== undefined);
  if (roleUsers.length) {
    const pairs = roleUsers.flatMap((l) => (l.roleIds ?? []).map((r) => [l.userId, r] as const));
    await m.query(
      `UPDATE auth.user_roles SET deleted_on = now(), updated_on = now()
        WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND deleted_on IS NULL
          AND (user_id, tenant_role_id) NOT IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))`,
      [tenantId, roleUsers.map((l) => l.userId), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
    if (pairs.length)
      await m.query(
        `INSERT INTO auth.user_roles (id, tenant_id, user_id, tenant_role_id)
         SELECT x.id, $1, x.user_id, x.role_id FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS x(id, user_id, role_id)
         ON CONFLICT (tenant_id, user_id, tenant_role_id) DO UPDATE SET deleted_on = NULL, updated_on = now()
         WHERE user_roles.deleted_on IS NOT NULL`,
        [tenantId, pairs.map(() => uuidv7()), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
      );
  }

  const positionUsers = links.filter((l) => l.positionIds !== undefined);
  if (positionUsers.length) {
    const pairs = positionUsers.flatMap((l) => (l.positionIds ?? []).map((p) => [l.userId, p] as const));
    await m.query(
      `UPDATE auth.user_positions SET is_deleted = true, deleted_on = now(), updated_on = now()
        WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND NOT is_deleted
          AND (user_id, position_id) NOT IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))`,
      [tenantId, positionUsers.map((l) => l.userId), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
    if (pairs.length)
      await m.query(
        `INSERT INTO auth.user_positions (id, tenant_id, user_id, position_id)
         SELECT x.id, $1, x.user_id, x.position_id FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS x(id, user_id, position_id)
         ON CONFLICT (tenant_id, user_id, position_id) DO UPDATE SET is_deleted = false, deleted_on = NULL, updated_on = now()
         WHERE user_positions.is_deleted`,
        [tenantId, pairs.map(() => uuidv7()), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
      );
  }

  const groupUsers = links.filter((l) => l.groups !== undefined);
  if (groupUsers.length) {
    const rows = groupUsers.flatMap((l) => (l.groups ?? []).map((g) => ({ userId: l.userId, groupId: g.groupId, primary: g.isPrimaryOrg === true })));
    const users = groupUsers.map((l) => l.userId);
    const primaries = rows.filter((r) => r.primary);
    // Clear the primary flags that go first: the unique index allows one primary at any moment.
    await m.query(
      `UPDATE auth.user_groups SET is_primary_org = false, primary_org_set_on = NULL, updated_on = now()
        WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND is_primary_org
          AND (user_id, group_id) NOT IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))`,
      [tenantId, users, primaries.map((r) => r.userId), primaries.map((r) => r.groupId)],
    );
    await m.query(
      `UPDATE auth.user_groups SET is_deleted = true, deleted_on = now(), is_primary_org = false, primary_org_set_on = NULL, updated_on = now()
        WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND NOT is_deleted
          AND (user_id, group_id) NOT IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))`,
      [tenantId, users, rows.map((r) => r.userId), rows.map((r) => r.groupId)],
    );
    if (rows.length)
      await m.query(
        `INSERT INTO auth.user_groups (id, tenant_id, user_id, group_id, is_primary_org, primary_org_set_on)
         SELECT x.id, $1, x.user_id, x.group_id, x.is_primary, CASE WHEN x.is_primary THEN now() END
           FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::boolean[]) AS x(id, user_id, group_id, is_primary)
         ON CONFLICT (tenant_id, user_id, group_id) DO UPDATE
            SET is_deleted = false, deleted_on = NULL, is_primary_org = EXCLUDED.is_primary_org,
                primary_org_set_on = CASE WHEN NOT EXCLUDED.is_primary_org THEN NULL
                                          WHEN user_groups.is_primary_org AND NOT user_groups.is_deleted THEN user_groups.primary_org_set_on
                                          ELSE now() END,
                updated_on = now()
          WHERE user_groups.is_deleted OR user_groups.is_primary_org <> EXCLUDED.is_primary_org`,
        [tenantId, rows.map(() => uuidv7()), rows.map((r) => r.userId), rows.map((r) => r.groupId), rows.map((r) => r.primary)],
      );
  }
}

/** Active members of the tenant holding its System Admin role. */
export async function activeSystemAdmins(m: EntityManager, tenantId: string): Promise<number> {
  const [{ n }]: { n: string }[] = await m.query(
    `SELECT count(DISTINCT tu.user_id) AS n
       FROM auth.tenant_users tu
       JOIN auth.user_roles ur ON ur.tenant_id = tu.tenant_id AND ur.user_id = tu.user_id AND ur.deleted_on IS NULL
       JOIN auth.tenant_roles r ON r.id = ur.tenant_role_id AND r.system_key = 'SYSTEM_ADMIN' AND NOT r.is_deleted
      WHERE tu.tenant_id = $1 AND tu.status = 'ACTIVE' AND NOT tu.is_deleted`,
    [tenantId],
  );
  return Number(n);
}

/** The managers above `managerId` (its manager, theirs, ...), at most 100 levels. */
export async function managerChain(m: EntityManager, tenantId: string, managerId: string): Promise<string[]> {
  const rows: { id: string }[] = await m.query(
    `WITH RECURSIVE chain(id, depth) AS (
       SELECT tu.manager_id, 1 FROM auth.tenant_users tu WHERE tu.tenant_id = $1 AND tu.user_id = $2
       UNION ALL
       SELECT tu.manager_id, c.depth + 1 FROM chain c JOIN auth.tenant_users tu ON tu.tenant_id = $1 AND tu.user_id = c.id
        WHERE c.depth < 100)
     SELECT id FROM chain WHERE id IS NOT NULL`,
    [tenantId, managerId],
  );
  return rows.map((r) => r.id);
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
