import { Module } from '@nestjs/common';
import { DecisionRolesController } from './decision-roles/decision-roles.controller';
import { DecisionRolesService } from './decision-roles/decision-roles.service';
import { GroupTypesController } from './group-types/group-types.controller';
import { GroupTypesService } from './group-types/group-types.service';
import { TenantDefaultsConsumer } from './group-types/tenant-defaults.consumer';
import { GroupRefs } from './groups/group-refs';
import { GroupsController } from './groups/groups.controller';
import { GroupsService } from './groups/groups.service';
import { PositionRefs } from './positions/position-refs';
import { PositionsController } from './positions/positions.controller';
import { PositionsService } from './positions/positions.service';
import { projectionConsumers } from '@ddm/platform';
import { DELEGATIONS } from './projections/delegation.projection';

/** The settings area: group types, groups, positions, decision roles, and the delegation projection behind their counts. */
@Module({
  controllers: [GroupTypesController, GroupsController, PositionsController, DecisionRolesController],
  providers: [GroupTypesService, TenantDefaultsConsumer, GroupRefs, GroupsService, PositionRefs, PositionsService, DecisionRolesService, projectionConsumers(DELEGATIONS)],
  exports: [GroupTypesService, GroupsService, PositionsService, DecisionRolesService],
})
export class SettingsModule {}
