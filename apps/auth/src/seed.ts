import { DefaultRoleKey, DEFAULT_ROLES } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { TenantsService } from './tenants/tenants.service';

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
  }
  return result;
}
