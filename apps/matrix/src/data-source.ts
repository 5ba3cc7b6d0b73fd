import { ServiceDataSource } from '@ddm/platform';
import { MatrixPlatform1763800000000 } from './migrations/1763800000000-matrix-platform';
import { MatrixOutboxTrace1764900000000 } from './migrations/1764900000000-matrix-outbox-trace';
import { MatrixCore1765500000000 } from './migrations/1765500000000-matrix-core';
import { MatrixGridReads1765700000000 } from './migrations/1765700000000-matrix-grid-reads';
import { MatrixIdempotency1765720000000 } from './migrations/1765720000000-matrix-idempotency';
import { MatrixTenantIsolation1765800000000 } from './migrations/1765800000000-matrix-tenant-isolation';
import { MatrixAuditTrail1765800000001 } from './migrations/1765800000001-matrix-audit-trail';
import { MatrixTenantOfChildRows1765800000003 } from './migrations/1765800000003-matrix-tenant-of-child-rows';
import { MatrixDelegationRoles1765950000000 } from './migrations/1765950000000-matrix-delegation-roles';
import { MatrixGridVersions1766100000000 } from './migrations/1766100000000-matrix-grid-versions';
import { MatrixChangeIds1766200000000 } from './migrations/1766200000000-matrix-change-ids';
import { MatrixDecisionRoles1766300000000 } from './migrations/1766300000000-matrix-decision-roles';
import { MatrixProjectionBackfills1766400000000 } from './migrations/1766400000000-matrix-projection-backfills';
import { MatrixAuditTrailSetBased1766500000000 } from './migrations/1766500000000-matrix-audit-trail-set-based';
import { MatrixSearchUnderRls1766500000001 } from './migrations/1766500000001-matrix-search-under-rls';
import { MatrixSearchAnswersRows1766600000000 } from './migrations/1766600000000-matrix-search-answers-rows';

/** The matrix schema: used by the service and by `migrate`. */
export const matrixDataSource: ServiceDataSource = {
  schema: 'matrix',
  // The search's "contains" is served by a trigram index.
  extensions: ['pg_trgm'],
  migrations: [MatrixPlatform1763800000000, MatrixOutboxTrace1764900000000, MatrixCore1765500000000, MatrixGridReads1765700000000, MatrixIdempotency1765720000000, MatrixTenantIsolation1765800000000, MatrixAuditTrail1765800000001, MatrixTenantOfChildRows1765800000003, MatrixDelegationRoles1765950000000, MatrixGridVersions1766100000000, MatrixChangeIds1766200000000, MatrixDecisionRoles1766300000000, MatrixProjectionBackfills1766400000000, MatrixAuditTrailSetBased1766500000000, MatrixSearchUnderRls1766500000001, MatrixSearchAnswersRows1766600000000],
};
