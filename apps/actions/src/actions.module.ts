import { Module } from '@nestjs/common';
import { projectionConsumers } from '@ddm/platform';
import { ActionConfigController } from './action-config/action-config.controller';
import { ActionConfigService } from './action-config/action-config.service';
import { ActionsController } from './actions/actions.controller';
import { ActionsService } from './actions/actions.service';
import { ACTION_TEMPLATES } from './projections/action-template.projection';
import { DECISIONS } from './projections/decision.projection';
import { DELEGATIONS } from './projections/delegation.projection';
import { DOCUMENTS } from './projections/document.projection';
import { GROUPS } from './projections/group.projection';
import { TENANT_SETTINGS } from './projections/tenant-settings.projection';
import { USERS } from './projections/user.projection';
import { AttestationStepsConsumer } from './system/attestation-steps.consumer';
import { DelegationStepsConsumer } from './system/delegation-steps.consumer';
import { DocumentOversightConsumer } from './system/document-oversight.consumer';
import { OverdueSweep } from './system/overdue.sweep';
import { ActionTenantDefaultsConsumer } from './system/tenant-defaults.consumer';

/**
 * The actions area: actions with owners, assignees and files; each tenant's statuses, priorities
 * and types; the actions the system opens and closes for the steps people must take (delegations,
 * attestations, documents); the overdue sweep; and the projections of the records actions show or name.
 */
@Module({
  controllers: [ActionConfigController, ActionsController],
  providers: [
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
