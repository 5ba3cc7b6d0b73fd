import { Module } from '@nestjs/common';
import { projectionConsumers } from '@ddm/platform';
import { ActionConfigRefs } from './action-config/action-config-refs';
import { ActionConfigController } from './action-config/action-config.controller';
import { ActionConfigService } from './action-config/action-config.service';
import { ActionsController } from './actions/actions.controller';
import { ActionsService } from './actions/actions.service';
import { ACTION_TEMPLATES } from './consumers/action-template.projection';
import { AttestationStepsConsumer } from './consumers/attestation-steps.consumer';
import { DECISIONS } from './consumers/decision.projection';
import { DelegationStepsConsumer } from './consumers/delegation-steps.consumer';
import { DELEGATIONS } from './consumers/delegation.projection';
import { DocumentOversightConsumer } from './consumers/document-oversight.consumer';
import { DOCUMENTS } from './consumers/document.projection';
import { GROUPS } from './consumers/group.projection';
import { ActionTenantDefaultsConsumer } from './consumers/tenant-defaults.consumer';
import { TENANT_SETTINGS } from './consumers/tenant-settings.projection';
import { USERS } from './consumers/user.projection';
import { OverdueSweep } from './sweeps/overdue.sweep';

/**
 * The actions area: actions with owners, assignees and files; each tenant's statuses, priorities
 * and types; the actions the system opens and closes for the steps people must take (delegations,
 * attestations, documents); the overdue sweep; and the projections of the records actions show or name.
 */
@Module({
  controllers: [ActionConfigController, ActionsController],
  providers: [
    ActionConfigRefs,
    ActionConfigService,
    ActionsService,
    ActionTenantDefaultsConsumer,
    DelegationStepsConsumer,
    AttestationStepsConsumer,
    DocumentOversightConsumer,
    OverdueSweep,
    projectionConsumers(USERS, GROUPS, DECISIONS, DELEGATIONS, DOCUMENTS, ACTION_TEMPLATES, TENANT_SETTINGS),
  ],
})
export class ActionsModule {}
