import { ServiceDataSource } from '@ddm/platform';
import { InvitationEntity } from './invitations/invitation.entity';
import { AuthCore1763800000000 } from './migrations/1763800000000-auth-core';
import { AuthUsers1763900000000 } from './migrations/1763900000000-auth-users';
import { AuthDelegationVersion1764100000000 } from './migrations/1764100000000-auth-delegation-version';
import { DelegationProjectionEntity, GroupProjectionEntity, PositionProjectionEntity } from './projections/projection.entity';
import { RoleMappingEntity, TenantRoleEntity } from './roles/tenant-role.entity';
import { TenantEntity } from './tenants/tenant.entity';
import { TenantUserEntity, UserEntity, UserGroupEntity, UserPositionEntity, UserRoleEntity } from './users/user.entity';

/** The auth schema: used by the service and by `migrate`. */
export const authDataSource: ServiceDataSource = {
  schema: 'auth',
  entities: [
    TenantEntity,
    UserEntity,
    TenantUserEntity,
    UserRoleEntity,
    UserPositionEntity,
    UserGroupEntity,
    TenantRoleEntity,
    RoleMappingEntity,
    InvitationEntity,
    PositionProjectionEntity,
    GroupProjectionEntity,
    DelegationProjectionEntity,
  ],
  migrations: [AuthCore1763800000000, AuthUsers1763900000000, AuthDelegationVersion1764100000000],
};
