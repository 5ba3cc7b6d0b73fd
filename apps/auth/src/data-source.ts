import { ServiceDataSource } from '@ddm/platform';
import { AuthCore1763800000000 } from './migrations/1763800000000-auth-core';
import { RoleMappingEntity, TenantRoleEntity } from './roles/tenant-role.entity';
import { TenantEntity } from './tenants/tenant.entity';
import { TenantUserEntity, UserEntity, UserRoleEntity } from './users/user.entity';

/** The auth schema: used by the service and by `migrate`. */
export const authDataSource: ServiceDataSource = {
  schema: 'auth',
  entities: [TenantEntity, UserEntity, TenantUserEntity, UserRoleEntity, TenantRoleEntity, RoleMappingEntity],
  migrations: [AuthCore1763800000000],
};
