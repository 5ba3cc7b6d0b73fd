import { ALL_PERMISSION_KEYS, DefaultRoleKey, DEFAULT_ROLES, seedCaller } from '@ddm/contracts';
import { Db, inTenant } from '@ddm/platform';
import { TenantsService } from './tenants/tenants.service';
import { UsersService } from './users/users.service';

interface SeedUser {
  email: string;
  firstName: string;
  lastName: string;
  role: DefaultRoleKey;
  /** Email of the manager (seeded before this user). */
  manager?: string;
}

const FIRST = ['Alice', 'Bruno', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Keiko', 'Liam', 'Mara', 'Nils', 'Olive', 'Pavel'];
const LAST = ['Novak', 'Okafor', 'Silva', 'Tanaka', 'Weber', 'Larsen', 'Moreau', 'Rossi', 'Haddad', 'Kowalski', 'Brennan', 'Ivanova', 'Duarte'];

/** Team leads report to the manager; everyone else to a lead. Roles: mostly Global User, some managers and auditors. */
function demoStaff(count: number): SeedUser[] {
  const leads = 6;
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(2, '0');
    const firstName = FIRST[i % FIRST.length];
    const lastName = LAST[(i * 5) % LAST.length];
    const role: DefaultRoleKey = i < leads ? 'GLOBAL_AUTHORITY_MANAGER' : i % 9 === 0 ? 'AUDITOR' : 'GLOBAL_USER';
    const manager = i < leads ? 'manager@demo.test' : `staff${String((i % leads) + 1).padStart(2, '0')}@demo.test`;
    return { email: `staff${n}@demo.test`, firstName, lastName, role, manager };
  });
}

const TENANTS: { name: string; users: SeedUser[] }[] = [
  {
    name: 'Demo Co',
    users: [
      { email: 'admin@demo.test', firstName: 'Ada', lastName: 'Admin', role: 'SYSTEM_ADMIN' },
      { email: 'manager@demo.test', firstName: 'Max', lastName: 'Manager', role: 'GLOBAL_AUTHORITY_MANAGER', manager: 'admin@demo.test' },
      { email: 'user@demo.test', firstName: 'Uma', lastName: 'User', role: 'GLOBAL_USER', manager: 'manager@demo.test' },
      { email: 'auditor@demo.test', firstName: 'Otto', lastName: 'Auditor', role: 'AUDITOR', manager: 'admin@demo.test' },
      // 50 users in all, spread over the roles, each with a manager.
      ...demoStaff(46),
    ],
  },
  {
    name: 'Other Co',
    users: [{ email: 'admin@other.test', firstName: 'Olga', lastName: 'Other', role: 'SYSTEM_ADMIN' }],
  },
];

export interface SeedResult {
  tenants: { id: string; name: string; users: { id: string; email: string; role: string }[] }[];
}

/**
 * Demo tenants and users; safe to run again (what exists is kept). Dev identities are `dev|<email>`.
 * Positions and groups belong to the settings area, which seeds (and publishes) its own.
 */
export async function seedAuth(tenants: TenantsService, db: Db): Promise<SeedResult> {
  const result: SeedResult = { tenants: [] };
  for (const t of TENANTS) {
    const tenant = (await tenants.findByName(t.name)) ?? (await tenants.create(t.name));
    await inTenant(tenant.id, async () => {
      const users: SeedResult['tenants'][number]['users'] = [];
      const idOf = new Map<string, string>();
      for (const u of t.users) {
        const [existing] = await db.query<{ id: string }>(
          `SELECT u.id FROM auth.users u JOIN auth.tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = $2 WHERE lower(u.email) = lower($1)`,
          [u.email, tenant.id],
        );
        const managerId = u.manager ? idOf.get(u.manager) : undefined;
        const id =
          existing?.id ??
          (await tenants.addMember(tenant.id, { ...u, roles: [u.role], idpUserId: `dev|${u.email}`, status: 'ACTIVE', managerId })).userId;
        idOf.set(u.email, id);
        users.push({ id, email: u.email, role: DEFAULT_ROLES.find((r) => r.key === u.role)!.roleName });
      }
      result.tenants.push({ id: tenant.id, name: tenant.name, users });
    });
  }
  return result;
}

/** Who holds which of Demo Co's positions (the settings seed makes the positions): the finance line the delegation seed hands authority down. */
const DEMO_POSITION_HOLDERS: { email: string; positionName: string }[] = [
  { email: 'admin@demo.test', positionName: 'Chief Executive Officer' },
  { email: 'manager@demo.test', positionName: 'Chief Financial Officer' },
  { email: 'user@demo.test', positionName: 'Financial Controller North America' },
  { email: 'staff01@demo.test', positionName: 'Financial Controller Europe' },
  { email: 'staff02@demo.test', positionName: 'Treasurer' },
  { email: 'staff07@demo.test', positionName: 'Accounts Payable Lead' },
];
/** A move after the delegations are issued: the Treasurer becomes Procurement Lead, so the delegation given to the Treasurer in person turns invalid. */
const DEMO_POSITION_MOVE = { email: 'staff02@demo.test', from: 'Treasurer', to: 'Procurement Lead' };

/** How long the seed waits for auth's projection of the settings area's positions. */
const POSITIONS_TIMEOUT_MS = 60_000;

type SeedTenant = { id: string; name: string; users: { id: string; email: string }[] };

/** The tenant's positions by name once all of `names` have reached auth's projection (the settings area's events). */
async function positionsByName(db: Db, tenantId: string, names: readonly string[]): Promise<Map<string, string>> {
  const deadline = Date.now() + POSITIONS_TIMEOUT_MS;
  for (;;) {
    const rows = await db.query<{ id: string; name: string }>(
      `SELECT id, position_name AS name FROM auth.position_projection WHERE tenant_id = $1 AND position_name = ANY($2::text[]) AND NOT is_deleted`,
      [tenantId, names],
    );
    const positions = new Map(rows.map((r) => [r.name, r.id]));
    if (names.every((n) => positions.has(n))) return positions;
    if (Date.now() > deadline) throw new Error(`auth seed: positions ${names.filter((n) => !positions.has(n)).join(', ')} did not reach auth within ${POSITIONS_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function positionsOf(db: Db, tenantId: string, userId: string): Promise<string[]> {
  const rows = await db.query<{ position_id: string }>(`SELECT position_id FROM auth.user_positions WHERE tenant_id = $1 AND user_id = $2 AND NOT is_deleted`, [tenantId, userId]);
  return rows.map((r) => r.position_id);
}

/**
 * Demo Co's position holders (other tenants get none), through the service, so the other areas
 * hear of each (user updated). Safe to run again: a user who holds a position already is left alone
 * (the Treasurer who moved stays moved).
 */
export async function seedPositionHolders(users: UsersService, db: Db, tenant: SeedTenant): Promise<void> {
  if (tenant.name !== 'Demo Co') return;
  const positions = await positionsByName(db, tenant.id, DEMO_POSITION_HOLDERS.map((h) => h.positionName));
  const admin = tenant.users.find((u) => u.email === 'admin@demo.test')!;
  const caller = seedCaller(tenant.id, admin, ALL_PERMISSION_KEYS);
  for (const h of DEMO_POSITION_HOLDERS) {
    const user = tenant.users.find((u) => u.email === h.email)!;
    if ((await positionsOf(db, tenant.id, user.id)).length) continue;
    await users.updateEntities(caller, user.id, { positionIds: [positions.get(h.positionName)!] });
  }
}

/** The Treasurer moves to Procurement Lead (run after the delegation seed); nothing when they moved already. */
export async function seedPositionMove(users: UsersService, db: Db, tenant: SeedTenant): Promise<void> {
  if (tenant.name !== 'Demo Co') return;
  const positions = await positionsByName(db, tenant.id, [DEMO_POSITION_MOVE.from, DEMO_POSITION_MOVE.to]);
  const user = tenant.users.find((u) => u.email === DEMO_POSITION_MOVE.email)!;
  if (!(await positionsOf(db, tenant.id, user.id)).includes(positions.get(DEMO_POSITION_MOVE.from)!)) return;
  const admin = tenant.users.find((u) => u.email === 'admin@demo.test')!;
  await users.updateEntities(seedCaller(tenant.id, admin, ALL_PERMISSION_KEYS), user.id, { positionIds: [positions.get(DEMO_POSITION_MOVE.to)!] });
}
