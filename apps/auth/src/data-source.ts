import { ServiceDataSource } from '@ddm/platform';
import { AuthCore1763800000000 } from './migrations/1763800000000-auth-core';
import { AuthUsers1763900000000 } from './migrations/1763900000000-auth-users';
import { AuthDelegationVersion1764100000000 } from './migrations/1764100000000-auth-delegation-version';
import { AuthAuditUserIds1764200000000 } from './migrations/1764200000000-auth-audit-user-ids';
import { AuthProjectionVersions1764200000001 } from './migrations/1764200000001-auth-projection-versions';
import { AuthUsersLoginSort1764200000002 } from './migrations/1764200000002-auth-users-login-sort';
import { AuthOutboxTrace1764900000000 } from './migrations/1764900000000-auth-outbox-trace';
import { AuthTenantSettings1765300000000 } from './migrations/1765300000000-auth-tenant-settings';
import { AuthIdempotency1765720000000 } from './migrations/1765720000000-auth-idempotency';
import { AuthTenantIsolation1765800000000 } from './migrations/1765800000000-auth-tenant-isolation';
import { AuthAuditTrail1765800000001 } from './migrations/1765800000001-auth-audit-trail';
import { AuthViewAuditKey1765800000002 } from './migrations/1765800000002-auth-view-audit-key';
import { AuthTenantOfChildRows1765800000003 } from './migrations/1765800000003-auth-tenant-of-child-rows';
import { AuthPeopleAndTenantsAudit1766000000000 } from './migrations/1766000000000-auth-people-and-tenants-audit';
import { AuthChangeIds1766200000000 } from './migrations/1766200000000-auth-change-ids';
import { AuthCurrencyRatesProjection1766300000000 } from './migrations/1766300000000-auth-currency-rates-projection';
import { AuthProjectionBackfills1766400000000 } from './migrations/1766400000000-auth-projection-backfills';
import { AuthAuditTrailSetBased1766500000000 } from './migrations/1766500000000-auth-audit-trail-set-based';
import { AuthSearchUnderRls1766500000001 } from './migrations/1766500000001-auth-search-under-rls';
import { AuthSearchAnswersRows1766600000000 } from './migrations/1766600000000-auth-search-answers-rows';

/** The auth schema: used by the service and by `migrate`. */
export const authDataSource: ServiceDataSource = {
  schema: 'auth',
  extensions: ['pg_trgm'],
  migrations: [
    AuthCore1763800000000,
    AuthUsers1763900000000,
    AuthDelegationVersion1764100000000,
    AuthAuditUserIds1764200000000,
    AuthProjectionVersions1764200000001,
    AuthUsersLoginSort1764200000002,
    AuthOutboxTrace1764900000000,
    AuthTenantSettings1765300000000,
    AuthIdempotency1765720000000,
    AuthTenantIsolation1765800000000,
    AuthAuditTrail1765800000001,
    AuthViewAuditKey1765800000002,
    AuthTenantOfChildRows1765800000003,
    AuthPeopleAndTenantsAudit1766000000000,
    AuthChangeIds1766200000000,
    AuthCurrencyRatesProjection1766300000000,
    AuthProjectionBackfills1766400000000,
    AuthAuditTrailSetBased1766500000000,
    AuthSearchUnderRls1766500000001,
    AuthSearchAnswersRows1766600000000,
  ],
};
