import { Injectable } from '@nestjs/common';
import { Caller, Page, badRequest, conflict, forbidden, notFound, selectPage } from '@ddm/contracts';
import { Db, Queryable, SetClause, TenantUniqueName, listPage, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { CallerChanges } from '../core/caller-changes';
import { UserRefs } from '../users/user-refs';
import { ListRolesQuery } from './dto/list-roles.query';
import { CreateRoleDto, ROLE_UPDATE_FIELDS, UpdateRoleDto } from './dto/role-change.dto';
import { RoleRow, TenantRoleView, toTenantRoleView } from './dto/role.response';
import { MappingChange, enabledBeyondCaller, fullMappings, roleChangeProblem } from './role.rules';
import { ROLE_BY_ID_SQL, roleList } from './role.sql';

/** Role names are unique per tenant among roles not deleted, in any case. */
const ROLE_NAME: TenantUniqueName = {
  table: 'auth.tenant_roles',
  column: 'role_name',
  index: 'tenant_roles_name_key',
  taken: (name) => `A role named "${name}" already exists in this tenant`,
};

@Injectable()
export class RolesService {
  constructor(
    private readonly db: Db,
    private readonly changes: CallerChanges,
    private readonly users: UserRefs,
  ) {}

  async list(tenantId: string, q: ListRolesQuery): Promise<Page<Partial<TenantRoleView>>> {
    return selectPage(await listPage(this.db, roleList(tenantId, q), toTenantRoleView), q.select);
  }

  async get(tenantId: string, roleId: string): Promise<TenantRoleView> {
    const [row] = await this.db.query<RoleRow>(ROLE_BY_ID_SQL, [roleId, tenantId]);
    if (!row) throw notFound(`Tenant role ${roleId} not found`);
    return toTenantRoleView(row);
  }

  /** A custom role: every key of the catalogue, enabled as asked. No one gives a role a key they do not hold. */
  async create(caller: Caller, tenantId: string, dto: CreateRoleDto): Promise<TenantRoleView> {
    refuseKeysBeyondCaller(dto.relationshipMappings, caller);
    const id = uuidv7();
    const roleName = dto.roleName.trim();
    await this.db.transaction(async (tx) => {
      await refuseTakenName(tx, ROLE_NAME, tenantId, roleName, null);
      const displayId = await tx.nextDisplayId(tenantId, 'role');
      await writeUniqueName(ROLE_NAME, roleName, () =>
        tx.query(
          `INSERT INTO auth.tenant_roles (id, tenant_id, role_display_id, role_name, description, is_custom, can_deactivate)
           VALUES ($1, $2, $3, $4, $5, true, true)`,
          [id, tenantId, displayId, roleName, dto.description ?? null],
        ),
      );
      await writeMappings(tx, tenantId, id, fullMappings(dto.relationshipMappings));
    });
    return this.get(tenantId, id);
  }

  /**
   * Renames a role, changes the keys it lists, or (re)activates it. A change of keys or of
   * activation changes what its holders may do: every cached caller of the tenant is dropped
   * (this process at once, the others through auth.caller.changed).
   */
  async update(caller: Caller, tenantId: string, roleId: string, dto: UpdateRoleDto): Promise<TenantRoleView> {
    if (!ROLE_UPDATE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${ROLE_UPDATE_FIELDS.join(', ')}`);
    await this.changes.transaction(async (tx, callerChanged) => {
      const [role] = await tx.query<{ role_name: string; system_key: string | null; can_deactivate: boolean; is_deactivated: boolean }>(
        `SELECT role_name, system_key, can_deactivate, is_deactivated FROM auth.tenant_roles
          WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`,
        [roleId, tenantId],
      );
      if (!role) throw notFound(`Tenant role ${roleId} not found`);
      const problem = roleChangeProblem({ roleName: role.role_name, systemKey: role.system_key, canDeactivate: role.can_deactivate }, dto);
      if (problem) throw conflict(problem);
      refuseKeysBeyondCaller(dto.relationshipMappings, caller);
      const roleName = dto.roleName?.trim();
      if (roleName !== undefined) await refuseTakenName(tx, ROLE_NAME, tenantId, roleName, roleId);

      const sets = new SetClause().raw(sql`updated_on = now()`);
      if (roleName !== undefined) sets.set('role_name', roleName);
      if (dto.description !== undefined) sets.set('description', dto.description);
      const activation = dto.isDeactivated !== undefined && dto.isDeactivated !== role.is_deactivated;
      if (activation) {
        sets.set('is_deactivated', dto.isDeactivated).set('status', dto.isDeactivated ? 'INACTIVE' : 'ACTIVE');
        sets.raw(dto.isDeactivated ? sql`deactivated_on = now()` : sql`deactivated_on = NULL`);
      }
      await writeUniqueName(ROLE_NAME, roleName ?? '', () => tx.query(sql`UPDATE auth.tenant_roles SET ${sets.sql} WHERE id = ${roleId} AND tenant_id = ${tenantId}`));
      if (dto.relationshipMappings?.length) await writeMappings(tx, tenantId, roleId, dto.relationshipMappings);
      if (activation || dto.relationshipMappings?.length) {
        await callerChanged({ tenantId });
        // What the role grants changed: its members' summaries carry their keys, so the other areas hear again.
        await this.users.publish(tx, 'evt.auth.user.updated', tenantId, await membersOf(tx, tenantId, roleId));
      }
    });
    return this.get(tenantId, roleId);
  }
}

function refuseKeysBeyondCaller(mappings: readonly MappingChange[] | undefined, caller: Caller): void {
  const beyond = enabledBeyondCaller(mappings, caller.keys);
  if (beyond.length) throw forbidden(`You cannot grant permissions you do not hold: ${beyond.join(', ')}`);
}

/** Sets the listed keys of a role (one statement); keys not listed keep their state. */
async function writeMappings(q: Queryable, tenantId: string, roleId: string, mappings: readonly MappingChange[]): Promise<void> {
  await q.query(
    `INSERT INTO auth.role_mappings (role_id, tenant_id, relationship_key_name, is_enabled)
     SELECT $1, $4, x.k, x.e FROM unnest($2::text[], $3::boolean[]) AS x(k, e)
     ON CONFLICT (role_id, relationship_key_name) DO UPDATE SET is_enabled = EXCLUDED.is_enabled`,
    [roleId, mappings.map((x) => x.relationshipKeyName), mappings.map((x) => x.isEnabled), tenantId],
  );
}

/** The tenant's members holding the role (memberships not deleted). */
async function membersOf(q: Queryable, tenantId: string, roleId: string): Promise<string[]> {
  const rows = await q.query<{ user_id: string }>(
    `SELECT DISTINCT ur.user_id FROM auth.user_roles ur JOIN auth.tenant_users tu ON tu.tenant_id = ur.tenant_id AND tu.user_id = ur.user_id AND NOT tu.is_deleted
      WHERE ur.tenant_id = $1 AND ur.tenant_role_id = $2 AND ur.deleted_on IS NULL`,
    [tenantId, roleId],
  );
  return rows.map((r) => r.user_id);
}
