import { Module } from '@nestjs/common';
import { projectionConsumers, snapshotSources } from '@ddm/platform';
import { ActionTemplateRefs } from './action-templates/action-template-refs';
import { ActionTemplatesController } from './action-templates/action-templates.controller';
import { ActionTemplatesService } from './action-templates/action-templates.service';
import { AuthorityTypeRefs } from './authority-types/authority-type-refs';
import { AuthorityTypesController } from './authority-types/authority-types.controller';
import { AuthorityTypesService } from './authority-types/authority-types.service';
import { ActionTemplateDefaultsConsumer } from './consumers/action-template-defaults.consumer';
import { DELEGATIONS } from './consumers/delegation.projection';
import { TenantDefaultsConsumer } from './consumers/tenant-defaults.consumer';
import { DecisionCategoriesController } from './decision-categories/decision-categories.controller';
import { DecisionCategoriesService } from './decision-categories/decision-categories.service';
import { DecisionCategoryRefs } from './decision-categories/decision-category-refs';
import { DecisionRolesController } from './decision-roles/decision-roles.controller';
import { DecisionRolesService } from './decision-roles/decision-roles.service';
import { DECISION_ROLES_SNAPSHOT } from './decision-roles/decision-role.sql';
import { DecisionSectionsController } from './decision-sections/decision-sections.controller';
import { DecisionSectionsService } from './decision-sections/decision-sections.service';
import { DocumentTypeRefs } from './document-types/document-type-refs';
import { DocumentVersioningRefs } from './document-versioning/document-versioning-refs';
import { DocumentVersioningController } from './document-versioning/document-versioning.controller';
import { DocumentVersioningService } from './document-versioning/document-versioning.service';
import { DocumentTypesController } from './document-types/document-types.controller';
import { DocumentTypesService } from './document-types/document-types.service';
import { GroupTypeRefs } from './group-types/group-type-refs';
import { GroupTypesController } from './group-types/group-types.controller';
import { GroupTypesService } from './group-types/group-types.service';
import { GroupsController } from './groups/groups.controller';
import { GroupsService } from './groups/groups.service';
import { PositionRefs } from './positions/position-refs';
import { PositionsController } from './positions/positions.controller';
import { PositionsService } from './positions/positions.service';

/**
 * The settings area: group types, groups, positions, decision roles, the building blocks of a
 * decision (sections, categories, authority types), document types, the consumer giving each new tenant its
 * defaults, and the delegation projection behind the counts.
 */
@Module({
  controllers: [
    GroupTypesController,
    GroupsController,
    PositionsController,
    DecisionRolesController,
    DecisionSectionsController,
    DecisionCategoriesController,
    AuthorityTypesController,
    ActionTemplatesController,
    DocumentTypesController,
    DocumentVersioningController,
  ],
  providers: [
    GroupTypeRefs,
    GroupTypesService,
    TenantDefaultsConsumer,
    GroupsService,
    PositionRefs,
    PositionsService,
    DecisionRolesService,
    DecisionSectionsService,
    DecisionCategoryRefs,
    DecisionCategoriesService,
    AuthorityTypeRefs,
    AuthorityTypesService,
    ActionTemplateRefs,
    ActionTemplatesService,
    ActionTemplateDefaultsConsumer,
    DocumentTypeRefs,
    DocumentTypesService,
    DocumentVersioningRefs,
    DocumentVersioningService,
    projectionConsumers(DELEGATIONS),
    snapshotSources(DECISION_ROLES_SNAPSHOT),
  ],
  exports: [GroupTypesService, GroupsService, PositionsService, DecisionRolesService, DecisionSectionsService, DecisionCategoriesService, AuthorityTypesService, DocumentTypesService],
})
export class SettingsModule {}
