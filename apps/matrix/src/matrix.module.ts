import { Module } from '@nestjs/common';
import { projectionConsumers } from '@ddm/platform';
import { GridController, SharedController } from './grid/grid.controller';
import { GridService } from './grid/grid.service';
import { MatricesController } from './matrices/matrices.controller';
import { MatricesService } from './matrices/matrices.service';
import { DECISIONS } from './consumers/decision.projection';
import { DELEGATIONS, DelegationRoleConsumer } from './consumers/delegation.projection';
import { AUTHORITY_TYPES, CATEGORIES, DECISION_ROLES, GROUPS, POSITIONS, SECTIONS } from './consumers/settings.projections';
import { USERS } from './consumers/user.projection';

/**
 * The matrix area: matrices (decisions down the side, people, positions or groups across), their
 * sharing inside the tenant and by external link, saved views and favourites, the search, the grid
 * (also as of any date) and its export, and the projections the grid reads.
 */
@Module({
  controllers: [MatricesController, GridController, SharedController],
  providers: [MatricesService, GridService, projectionConsumers(USERS, GROUPS, POSITIONS, SECTIONS, CATEGORIES, AUTHORITY_TYPES, DECISION_ROLES, DECISIONS, DELEGATIONS), DelegationRoleConsumer],
})
export class MatrixModule {}
