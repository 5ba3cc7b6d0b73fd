import { ServiceDataSource } from '@ddm/platform';
import { AuthCore1763800000000 } from './migrations/1763800000000-auth-core';
import { AuthUsers1763900000000 } from './migrations/1763900000000-auth-users';
import { AuthDelegationVersion1764100000000 } from './migrations/1764100000000-auth-delegation-version';

/** The auth schema: used by the service and by `migrate`. */
export const authDataSource: ServiceDataSource = {
  schema: 'auth',
  extensions: ['pg_trgm'],
  migrations: [AuthCore1763800000000, AuthUsers1763900000000, AuthDelegationVersion1764100000000],
};
