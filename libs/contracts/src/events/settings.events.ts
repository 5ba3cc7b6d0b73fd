/**
 * Events of the settings area: positions, groups, group types, decision roles, and the building
 * blocks of a decision (sections, categories, authority types), as other areas project them.
 */
import { BooleanField, EnumField, IntField, NestedField, StringField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';

const STATUSES = ['ACTIVE', 'INACTIVE'] as const;

/** A position as the settings area publishes it (spec §2.6). */
export class PositionPayload {
  @UuidField() id: string;
  @StringField({ max: 200 }) positionName: string;
  /** Display id ("10000", ...). */
  @StringField({ max: 20 }) positionId: string;
  @EnumField(STATUSES) status: string;
  @BooleanField() isDeleted: boolean;
  @StringField({ nullable: true, max: 255 }) externalId: string | null;
  @BooleanField() isSCIMProvisioned: boolean;
  /** Record ids of the position's groups (not deleted). */
  @UuidArrayField({ optional: true, max: 1000 }) groupIds?: string[];
  @StringField({ optional: true, max: 40 }) updatedOn?: string;
}

/** evt.settings.position.created | updated | deleted */
export class PositionEvent {
  @UuidField() tenantId: string;
  @NestedField(() => PositionPayload) position: PositionPayload;
}

/** A group as the settings area publishes it (spec §2.5). */
export class GroupPayload {
  @UuidField() id: string;
  /** Short code (6 letters and digits). */
  @StringField({ max: 20 }) groupId: string;
  @StringField({ max: 200 }) groupName: string;
  @StringField({ nullable: true, max: 200 }) displayName: string | null;
  @UuidField({ nullable: true }) tenantGroupTypeId: string | null;
  @StringField({ nullable: true, max: 200 }) tenantGroupTypeName: string | null;
  @EnumField(STATUSES) status: string;
  @BooleanField() isDeleted: boolean;
  @StringField({ nullable: true, max: 255 }) externalId: string | null;
  @StringField({ nullable: true, max: 255 }) instanceId: string | null;
  @StringField({ nullable: true, max: 200 }) legalName?: string | null;
  @StringField({ nullable: true, max: 10 }) baseCurrency?: string | null;
  /** Record ids of the group's parents (not deleted). */
  @UuidArrayField({ optional: true, max: 1000 }) parentGroupIds?: string[];
}

/** evt.settings.group.created | updated | deleted */
export class GroupEvent {
  @UuidField() tenantId: string;
  @NestedField(() => GroupPayload) group: GroupPayload;
}

/** A group type as the settings area publishes it. */
export class GroupTypePayload {
  @UuidField() id: string;
  @StringField({ max: 100 }) groupTypeName: string;
  @EnumField(STATUSES) status: string;
  @BooleanField() isDefault: boolean;
  @BooleanField() addressEnabled: boolean;
  @BooleanField() isDeleted: boolean;
}

/** evt.settings.group-type.created | updated | deleted */
export class GroupTypeEvent {
  @UuidField() tenantId: string;
  @NestedField(() => GroupTypePayload) groupType: GroupTypePayload;
}

/** A decision role as the settings area publishes it (spec §2.7). */
export class DecisionRolePayload {
  @UuidField() id: string;
  @StringField({ max: 50 }) roleName: string;
  @EnumField(STATUSES) status: string;
  @BooleanField() isDeleted: boolean;
}

/** evt.settings.decision-role.created | updated | deleted */
export class DecisionRoleEvent {
  @UuidField() tenantId: string;
  @NestedField(() => DecisionRolePayload) decisionRole: DecisionRolePayload;
}

/** A decision section as the settings area publishes it. */
export class DecisionSectionPayload {
  @UuidField() id: string;
  @StringField({ max: 50 }) sectionName: string;
  @BooleanField() isDeleted: boolean;
}

/** evt.settings.decision-section.created | updated | deleted */
export class DecisionSectionEvent {
  @UuidField() tenantId: string;
  @NestedField(() => DecisionSectionPayload) decisionSection: DecisionSectionPayload;
}

/** A decision category as the settings area publishes it; `sectionId` null when it is in no section. */
export class DecisionCategoryPayload {
  @UuidField() id: string;
  @StringField({ max: 50 }) categoryName: string;
  @UuidField({ nullable: true }) sectionId: string | null;
  @BooleanField() isDeleted: boolean;
}

/** evt.settings.decision-category.created | updated | deleted */
export class DecisionCategoryEvent {
  @UuidField() tenantId: string;
  @NestedField(() => DecisionCategoryPayload) decisionCategory: DecisionCategoryPayload;
}

/** An authority type (Approval, Signatory, ...) as the settings area publishes it. */
export class AuthorityTypePayload {
  @UuidField() id: string;
  /** The type's name. */
  @StringField({ max: 50 }) authorityType: string;
  @StringField({ nullable: true, max: 100 }) authorityTypeIcon: string | null;
  @IntField({ min: 0 }) authorityTypeOrder: number;
  @EnumField(STATUSES) status: string;
  /** One of the types every tenant starts with (Approval, Signatory). */
  @BooleanField() isDefault: boolean;
  @BooleanField() isDeleted: boolean;
}

/** evt.settings.authority-type.created | updated | deleted */
export class AuthorityTypeEvent {
  @UuidField() tenantId: string;
  @NestedField(() => AuthorityTypePayload) authorityType: AuthorityTypePayload;
}

/** A document type (Policy, Procedure, ...) as the settings area publishes it. */
export class DocumentTypePayload {
  @UuidField() id: string;
  @StringField({ max: 150 }) documentTypeName: string;
  @StringField({ nullable: true, max: 150 }) documentTypeIcon: string | null;
  @EnumField(STATUSES) status: string;
  /** One of the types every tenant starts with (Policy, Procedure, Charter, Resolution, Contract). */
  @BooleanField() isDefault: boolean;
  @BooleanField() isDeleted: boolean;
}

/** evt.settings.document-type.created | updated | deleted */
export class DocumentTypeEvent {
  @UuidField() tenantId: string;
  @NestedField(() => DocumentTypePayload) documentType: DocumentTypePayload;
}

export const SETTINGS_EVENTS = {
  'evt.settings.position.created': eventEntry(PositionEvent, 'A position was created.'),
  'evt.settings.position.updated': eventEntry(PositionEvent, 'A position changed (name, status, groups, source).'),
  'evt.settings.position.deleted': eventEntry(PositionEvent, 'A position was deleted (softly).'),
  'evt.settings.group.created': eventEntry(GroupEvent, 'A group was created.'),
  'evt.settings.group.updated': eventEntry(GroupEvent, "A group changed (names, type, status, parents; also when its type's name changed)."),
  'evt.settings.group.deleted': eventEntry(GroupEvent, 'A group was deleted (softly).'),
  'evt.settings.group-type.created': eventEntry(GroupTypeEvent, 'A group type was created (also the defaults of a new tenant).'),
  'evt.settings.group-type.updated': eventEntry(GroupTypeEvent, 'A group type changed.'),
  'evt.settings.group-type.deleted': eventEntry(GroupTypeEvent, 'A group type was deleted (softly).'),
  'evt.settings.decision-role.created': eventEntry(DecisionRoleEvent, 'A decision role was created.'),
  'evt.settings.decision-role.updated': eventEntry(DecisionRoleEvent, 'A decision role changed.'),
  'evt.settings.decision-role.deleted': eventEntry(DecisionRoleEvent, 'A decision role was deleted (softly).'),
  'evt.settings.decision-section.created': eventEntry(DecisionSectionEvent, 'A decision section was created.'),
  'evt.settings.decision-section.updated': eventEntry(DecisionSectionEvent, 'A decision section changed.'),
  'evt.settings.decision-section.deleted': eventEntry(DecisionSectionEvent, "A decision section was deleted (softly); its categories' updated events follow (they are in no section now)."),
  'evt.settings.decision-category.created': eventEntry(DecisionCategoryEvent, 'A decision category was created.'),
  'evt.settings.decision-category.updated': eventEntry(DecisionCategoryEvent, 'A decision category changed (name, section; also when its section was deleted).'),
  'evt.settings.decision-category.deleted': eventEntry(DecisionCategoryEvent, 'A decision category was deleted (softly).'),
  'evt.settings.authority-type.created': eventEntry(AuthorityTypeEvent, 'An authority type was created (also the defaults of a new tenant).'),
  'evt.settings.authority-type.updated': eventEntry(AuthorityTypeEvent, 'An authority type changed (name, icon, order, status).'),
  'evt.settings.authority-type.deleted': eventEntry(AuthorityTypeEvent, 'An authority type was deleted (softly).'),
  'evt.settings.document-type.created': eventEntry(DocumentTypeEvent, 'A document type was created (also the defaults of a new tenant).'),
  'evt.settings.document-type.updated': eventEntry(DocumentTypeEvent, 'A document type changed (name, icon, status).'),
  'evt.settings.document-type.deleted': eventEntry(DocumentTypeEvent, 'A document type was deleted (softly).'),
} as const;

/** The settings area's subjects by name. */
export const SETTINGS_EVENT_SUBJECTS = {
  positionCreated: 'evt.settings.position.created',
  positionUpdated: 'evt.settings.position.updated',
  positionDeleted: 'evt.settings.position.deleted',
  groupCreated: 'evt.settings.group.created',
  groupUpdated: 'evt.settings.group.updated',
  groupDeleted: 'evt.settings.group.deleted',
  groupTypeCreated: 'evt.settings.group-type.created',
  groupTypeUpdated: 'evt.settings.group-type.updated',
  groupTypeDeleted: 'evt.settings.group-type.deleted',
  decisionRoleCreated: 'evt.settings.decision-role.created',
  decisionRoleUpdated: 'evt.settings.decision-role.updated',
  decisionRoleDeleted: 'evt.settings.decision-role.deleted',
  decisionSectionCreated: 'evt.settings.decision-section.created',
  decisionSectionUpdated: 'evt.settings.decision-section.updated',
  decisionSectionDeleted: 'evt.settings.decision-section.deleted',
  decisionCategoryCreated: 'evt.settings.decision-category.created',
  decisionCategoryUpdated: 'evt.settings.decision-category.updated',
  decisionCategoryDeleted: 'evt.settings.decision-category.deleted',
  authorityTypeCreated: 'evt.settings.authority-type.created',
  authorityTypeUpdated: 'evt.settings.authority-type.updated',
  authorityTypeDeleted: 'evt.settings.authority-type.deleted',
  documentTypeCreated: 'evt.settings.document-type.created',
  documentTypeUpdated: 'evt.settings.document-type.updated',
  documentTypeDeleted: 'evt.settings.document-type.deleted',
} as const satisfies Record<string, keyof typeof SETTINGS_EVENTS>;
