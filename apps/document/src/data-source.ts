import { ServiceDataSource } from '@ddm/platform';
import { DocumentPlatform1763800000000 } from './migrations/1763800000000-document-platform';
import { DocumentOutboxTrace1764900000000 } from './migrations/1764900000000-document-outbox-trace';
import { DocumentCore1765400000000 } from './migrations/1765400000000-document-core';
import { DocumentAudience1765710000000 } from './migrations/1765710000000-document-audience';
import { DocumentIdempotency1765720000000 } from './migrations/1765720000000-document-idempotency';
import { DocumentTenantIsolation1765800000000 } from './migrations/1765800000000-document-tenant-isolation';
import { DocumentAuditTrail1765800000001 } from './migrations/1765800000001-document-audit-trail';
import { DocumentTenantOfChildRows1765800000003 } from './migrations/1765800000003-document-tenant-of-child-rows';
import { DocumentChangeIds1766200000000 } from './migrations/1766200000000-document-change-ids';
import { DocumentAuditTrailSetBased1766500000000 } from './migrations/1766500000000-document-audit-trail-set-based';
import { DocumentSearchUnderRls1766500000001 } from './migrations/1766500000001-document-search-under-rls';
import { DocumentSearchAnswersRows1766600000000 } from './migrations/1766600000000-document-search-answers-rows';

/** The document schema: used by the service and by `migrate`. */
export const documentDataSource: ServiceDataSource = {
  schema: 'document',
  extensions: ['pg_trgm'],
  migrations: [DocumentPlatform1763800000000, DocumentOutboxTrace1764900000000, DocumentCore1765400000000, DocumentAudience1765710000000, DocumentIdempotency1765720000000, DocumentTenantIsolation1765800000000, DocumentAuditTrail1765800000001, DocumentTenantOfChildRows1765800000003, DocumentChangeIds1766200000000, DocumentAuditTrailSetBased1766500000000, DocumentSearchUnderRls1766500000001, DocumentSearchAnswersRows1766600000000],
};
