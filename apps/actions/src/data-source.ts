import { ServiceDataSource } from '@ddm/platform';
import { ActionsPlatform1763800000000 } from './migrations/1763800000000-actions-platform';
import { ActionsOutboxTrace1764900000000 } from './migrations/1764900000000-actions-outbox-trace';
import { ActionsCore1765300000000 } from './migrations/1765300000000-actions-core';
import { ActionsIdempotency1765720000000 } from './migrations/1765720000000-actions-idempotency';
import { ActionsTenantIsolation1765800000000 } from './migrations/1765800000000-actions-tenant-isolation';
import { ActionsAuditTrail1765800000001 } from './migrations/1765800000001-actions-audit-trail';
import { ActionsChangeIds1766200000000 } from './migrations/1766200000000-actions-change-ids';
import { ActionsAuditTrailSetBased1766500000000 } from './migrations/1766500000000-actions-audit-trail-set-based';
import { ActionsSearchUnderRls1766500000001 } from './migrations/1766500000001-actions-search-under-rls';
import { ActionsSearchAnswersRows1766600000000 } from './migrations/1766600000000-actions-search-answers-rows';

/** The actions schema: used by the service and by `migrate`. */
export const actionsDataSource: ServiceDataSource = {
  schema: 'actions',
  // The list's search: ILIKE '%term%' served by a trigram index.
  extensions: ['pg_trgm'],
  migrations: [ActionsPlatform1763800000000, ActionsOutboxTrace1764900000000, ActionsCore1765300000000, ActionsIdempotency1765720000000, ActionsTenantIsolation1765800000000, ActionsAuditTrail1765800000001, ActionsChangeIds1766200000000, ActionsAuditTrailSetBased1766500000000, ActionsSearchUnderRls1766500000001, ActionsSearchAnswersRows1766600000000],
};
