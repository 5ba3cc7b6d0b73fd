import { ServiceDataSource } from '@ddm/platform';
import { GroupTypeEntity } from './group-types/group-type.entity';
import { GroupAddressEntity, GroupEntity, GroupParentEntity } from './groups/group.entity';
import { DecisionRoleEntity } from './decision-roles/decision-role.entity';
import { DelegationProjectionEntity } from './delegations/delegation.entity';
import { PositionEntity, PositionGroupEntity } from './positions/position.entity';
import { SettingsPositions1764000000001 } from './migrations/1764000000001-settings-positions';
import { SettingsDelegationVersion1764000000002 } from './migrations/1764000000002-settings-delegation-version';
import { SettingsPlatform1763800000000 } from './migrations/1763800000000-settings-platform';
import { SettingsStructure1764000000000 } from './migrations/1764000000000-settings-structure';

/** The settings schema: used by the service and by `migrate`. */
export const settingsDataSource: ServiceDataSource = {
  schema: 'settings',
  entities: [GroupTypeEntity, GroupEntity, GroupAddressEntity, GroupParentEntity, DecisionRoleEntity, PositionEntity, PositionGroupEntity, DelegationProjectionEntity],
  migrations: [SettingsPlatform1763800000000, SettingsStructure1764000000000, SettingsPositions1764000000001, SettingsDelegationVersion1764000000002],
};
