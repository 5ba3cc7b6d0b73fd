import { ServiceDataSource } from '@ddm/platform';
import { DecisionPlatform1763800000000 } from './migrations/1763800000000-decision-platform';
import { DecisionOutboxTrace1764900000000 } from './migrations/1764900000000-decision-outbox-trace';
import { DecisionCore1765000000000 } from './migrations/1765000000000-decision-core';
import { DecisionStatusCount1765100000000 } from './migrations/1765100000000-decision-status-count';
import { DecisionDelegations1765200000000 } from './migrations/1765200000000-decision-delegations';
import { DecisionDelegationRoles1765300000000 } from './migrations/1765300000000-decision-delegation-roles';
import { DecisionDelegationStatusCount1765300000001 } from './migrations/1765300000001-decision-delegation-status-count';
import { DecisionHistory1765300000002 } from './migrations/1765300000002-decision-history';
import { DecisionAuthority1765400000000 } from './migrations/1765400000000-decision-authority';
import { DecisionSodRules1765400000001 } from './migrations/1765400000001-decision-sod-rules';
import { DecisionAttestations1765400000002 } from './migrations/1765400000002-decision-attestations';
import { DecisionIdempotency1765720000000 } from './migrations/1765720000000-decision-idempotency';
import { DecisionTenantIsolation1765800000000 } from './migrations/1765800000000-decision-tenant-isolation';
import { DecisionAuditTrail1765800000001 } from './migrations/1765800000001-decision-audit-trail';
import { DecisionTenantOfChildRows1765800000003 } from './migrations/1765800000003-decision-tenant-of-child-rows';
import { DecisionRoleAssignments1765950000000 } from './migrations/1765950000000-decision-role-assignments';
import { DecisionOrganisationIndexes1766000000000 } from './migrations/1766000000000-decision-organisation-indexes';
import { DecisionChangeIds1766200000000 } from './migrations/1766200000000-decision-change-ids';
import { DecisionDocuments1766300000000 } from './migrations/1766300000000-decision-documents';
import { DecisionSearchUnderRls1766400000000 } from './migrations/1766400000000-decision-search-under-rls';
import { DecisionAuditTrailSetBased1766500000000 } from './migrations/1766500000000-decision-audit-trail-set-based';
import { DecisionSearchAnswersRows1766600000000 } from './migrations/1766600000000-decision-search-answers-rows';
import { DecisionNameKey1766600000001 } from './migrations/1766600000001-decision-name-key';
import { DecisionDelegationsSearch1766600000002 } from './migrations/1766600000002-decision-delegations-search';
import { DecisionDelegationsInGroups1766600000003 } from './migrations/1766600000003-decision-delegations-in-groups';

/** The decision schema: used by the service and by `migrate`. */
export const decisionDataSource: ServiceDataSource = {
  schema: 'decision',
  extensions: ['pg_trgm'],
  migrations: [DecisionPlatform1763800000000, DecisionOutboxTrace1764900000000, DecisionCore1765000000000, DecisionStatusCount1765100000000, DecisionDelegations1765200000000, DecisionDelegationRoles1765300000000, DecisionDelegationStatusCount1765300000001, DecisionHistory1765300000002, DecisionAuthority1765400000000, DecisionSodRules1765400000001, DecisionAttestations1765400000002, DecisionIdempotency1765720000000, DecisionTenantIsolation1765800000000, DecisionAuditTrail1765800000001, DecisionTenantOfChildRows1765800000003, DecisionRoleAssignments1765950000000, DecisionOrganisationIndexes1766000000000, DecisionChangeIds1766200000000, DecisionDocuments1766300000000, DecisionSearchUnderRls1766400000000, DecisionAuditTrailSetBased1766500000000, DecisionSearchAnswersRows1766600000000, DecisionNameKey1766600000001, DecisionDelegationsSearch1766600000002, DecisionDelegationsInGroups1766600000003],
};
