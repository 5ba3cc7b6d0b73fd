import { DefaultRoleKey, DEFAULT_ROLES } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { TenantsService } from './tenants/tenants.service';

interface SeedUser {
  email: string;
  firstName: string;
  lastName: string;
  role: DefaultRoleKey;
}

const TENANTS: { name: string; users: SeedUser[] }[] = [
  {
    name: 'Demo Co',
    users: [
      { email: 'admin@demo.test', firstName: 'Ada', lastName: 'Admin', role: 'SYSTEM_ADMIN' },
      { email: 'manager@demo.test', firstName: 'Max', lastName: 'Manager', role: 'GLOBAL_AUTHORITY_MANAGER' },
      { email: 'user@demo.test', firstName: 'Uma', lastName: 'User', role: 'GLOBAL_USER' },
      { email: 'auditor@demo.test', firstName: 'Otto', lastName: 'Auditor', role: 'AUDITOR' },
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

/** Demo tenants and users; safe to run again (what exists is kept). Dev identities are `dev|<email>`. */
export async function seedAuth(tenants: TenantsService, db: Db): Promise<SeedResult> {
  const result: SeedResult = { tenants: [] };
  for (const t of TENANTS) {
    const tenant = (await tenants.findByName(t.name)) ?? (await tenants.create(t.name));
    const users: SeedResult['tenants'][number]['users'] = [];
    for (const u of t.users) {
      const [existing] = await db.query<{ id: string }>(
        `SELECT u.id FROM auth.users u JOIN auth.tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = $2 WHERE lower(u.email) = lower($1)`,
        [u.email, tenant.id],
      );
      const id = existing?.id ?? (await tenants.addMember(tenant.id, { ...u, roles: [u.role], idpUserId: `dev|${u.email}`, status: 'ACTIVE' })).userId;
      users.push({ id, email: u.email, role: DEFAULT_ROLES.find((r) => r.key === u.role)!.roleName });
    }
    result.tenants.push({ id: tenant.id, name: tenant.name, users });
  }
  return result;
}
