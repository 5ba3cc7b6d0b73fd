import { Module } from '@nestjs/common';
import { projectionConsumers, snapshotSources } from '@ddm/platform';
import { ConditionsController } from './conditions/conditions.controller';
import { ConditionsService } from './conditions/conditions.service';
import { DecisionsController } from './decisions/decisions.controller';
import { DecisionsService } from './decisions/decisions.service';
import { DelegationsController } from './delegations/delegations.controller';
import { DelegationsService } from './delegations/delegations.service';
import { ExpirySweep } from './sweeps/expiry.sweep';
import { ChangelogController } from './delegation-changelog/delegation-changelog.controller';
import { DelegationChangelogService } from './delegation-changelog/delegation-changelog.service';
import { RolesController } from './delegation-roles/delegation-roles.controller';
import { DelegationRolesService } from './delegation-roles/delegation-roles.service';
import { DECISION_ROLES } from './consumers/decision-role.projection';
import { DOCUMENTS } from './consumers/document.projection';
import { CURRENCY_RATES_SNAPSHOT } from './authority/currency-rates';
import { AuthorityController } from './authority/authority.controller';
import { AuthorityService } from './authority/authority.service';
import { WhatIfController } from './authority/what-if/what-if.controller';
import { WhatIfService } from './authority/what-if/what-if.service';
import { SodRefs } from './authority/sod/sod-refs';
import { SodRulesController } from './authority/sod/sod-rules.controller';
import { SodRulesService } from './authority/sod/sod-rules.service';
import { BulkDuplicateJob } from './jobs/bulk-duplicate.job';
import { BulkLinkDocumentsJob } from './jobs/bulk-link-documents.job';
import { BulkReassignRecipientsJob } from './jobs/bulk-reassign-recipients.job';
import { JobsController } from './jobs/jobs.controller';
import { JobsService } from './jobs/jobs.service';
import { AUTHORITY_TYPES } from './consumers/authority-type.projection';
import { CATEGORIES } from './consumers/category.projection';
import { GROUPS } from './consumers/group.projection';
import { POSITIONS } from './consumers/position.projection';
import { SECTIONS } from './consumers/section.projection';
import { TENANT_SETTINGS } from './consumers/tenant-settings.projection';
import { USERS } from './consumers/user.projection';
import { RevisionsController } from './decision-revisions/decision-revisions.controller';
import { DecisionRevisionsService } from './decision-revisions/decision-revisions.service';
import { AttestationAnswersConsumer } from './consumers/attestation-answers.consumer';
import { AttestationOverdueSweep } from './sweeps/attestation-overdue.sweep';
import { AttestationsController } from './attestations/attestations.controller';
import { AttestationsService } from './attestations/attestations.service';

/**
 * The decision area: decisions (with their groups, authorities, documents and revisions), their
 * delegations (issued and redelegated within the rules, moved through their lifecycle), the
 * bulk jobs that follow an accepted request, attestation campaigns (holders confirm or dispute the
 * delegations they hold), and the projections of the records decisions name (groups, users,
 * sections, categories, authority types, documents).
 */
@Module({
  controllers: [DecisionsController, DelegationsController, AuthorityController, WhatIfController, ConditionsController, RolesController, ChangelogController, RevisionsController, JobsController, SodRulesController, AttestationsController],
  providers: [DecisionsService, DelegationsService, AuthorityService, WhatIfService, SodRulesService, SodRefs, AttestationsService, AttestationOverdueSweep, AttestationAnswersConsumer, ConditionsService, DelegationRolesService, DelegationChangelogService, ExpirySweep, DecisionRevisionsService, BulkDuplicateJob, BulkLinkDocumentsJob, BulkReassignRecipientsJob, JobsService, projectionConsumers(GROUPS, USERS, POSITIONS, SECTIONS, CATEGORIES, AUTHORITY_TYPES, TENANT_SETTINGS, DECISION_ROLES, DOCUMENTS), snapshotSources(CURRENCY_RATES_SNAPSHOT)],
})
export class DecisionModule {}
