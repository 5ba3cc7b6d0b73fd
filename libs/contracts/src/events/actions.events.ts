/**
 * Events of the actions area (evt.actions.action.*) and of the action templates the settings area
 * keeps (evt.settings.action-template.*), with the tenant's default action types, whose ids both
 * areas derive the same way (a template names its type by that id).
 */
import { v5 as uuidv5 } from 'uuid';
import { BooleanField, IntField, NestedField, StringField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';

/** The default action types every tenant starts with: a stable key, the name shown and its icon. */
export const DEFAULT_ACTION_TYPES = [
  { type: 'MEETING', name: 'Meeting', typeIcon: 'calendar' },
  { type: 'EMAIL', name: 'Email', typeIcon: 'mail' },
  { type: 'REVIEW', name: 'Review', typeIcon: 'search' },
  { type: 'APPROVAL', name: 'Approval', typeIcon: 'check-circle' },
  { type: 'TASK', name: 'Task', typeIcon: 'check-square' },
] as const;
export type DefaultActionTypeKey = (typeof DEFAULT_ACTION_TYPES)[number]['type'];

/** Namespace of the derived ids of a tenant's default action configuration (types, statuses, priorities, templates). */
const ACTION_DEFAULTS_NAMESPACE = '5d3f3c1e-8a5b-4b8e-9c61-2f0f6c7a9b10';

/**
 * The id of a default record of a tenant's action configuration (`kind` type, status, priority,
 * template; `key` its stable key): the same in every area and on every replica, so inserting the
 * defaults twice (the tenant-created consumer and the lazy backstop) yields one row.
 */
export function actionDefaultId(tenantId: string, kind: 'type' | 'status' | 'priority' | 'template', key: string): string {
  return uuidv5(`${tenantId.toLowerCase()}:${kind}:${key}`, ACTION_DEFAULTS_NAMESPACE);
}

/** An action as evt.actions.action.* carry it (what notifications and other areas need of it). */
export class ActionPayload {
  @UuidField() id: string;
  /** Display id ("10000", ...). */
  @StringField({ max: 20 }) actionId: string;
  @StringField({ max: 200 }) actionName: string;
  @UuidField({ nullable: true }) ownerId: string | null;
  @UuidArrayField({ max: 100 }) assigneeIds: string[];
  @UuidField() actionStatusId: string;
  /** The status's stable key: TODO, IN_PROGRESS, COMPLETED, CANCELED, OVERDUE. */
  @StringField({ max: 20 }) statusKey: string;
  @StringField({ nullable: true, max: 40 }) dueDate: string | null;
  @BooleanField() isSystemGenerated: boolean;
  /** What opened a system action (DELEGATION_ACCEPTANCE, DELEGATION_APPROVAL, DELEGATION_REQUEST, DOCUMENT_REVIEW, DOCUMENT_APPROVAL, DECISION_ROLE_ACCEPTANCE, ATTESTATION); null for a manual one. */
  @StringField({ nullable: true, max: 40 }) systemKind: string | null;
  @UuidField({ nullable: true }) decisionId: string | null;
  @UuidField({ nullable: true }) delegationId: string | null;
  @UuidField({ nullable: true }) documentId: string | null;
  @BooleanField() isDeleted: boolean;
  /** Increases with every change of the action: a consumer keeps the newest state. */
  @IntField({ min: 0 }) version: number;
}

/** evt.actions.action.created | updated | completed | deleted | overdue */
export class ActionEvent {
  @UuidField() tenantId: string;
  @NestedField(() => ActionPayload) action: ActionPayload;
  /** Who made the change (null: the system, e.g. the overdue sweep or a closed cause). */
  @UuidField({ nullable: true }) changedBy: string | null;
}

/** evt.actions.action.assigned: people were newly assigned to an action (notifications tell them: ACTION_ASSIGNED). */
export class ActionAssignedEvent extends ActionEvent {
  /** Only the people added by this change (those kept are not told again). */
  @UuidArrayField({ max: 100 }) newAssigneeIds: string[];
}

/** An action template as the settings area publishes it. */
export class ActionTemplatePayload {
  @UuidField() id: string;
  @StringField({ max: 200 }) name: string;
  @StringField({ nullable: true, max: 1000 }) description: string | null;
  /** The action type it opens actions of (a default type's id is `actionDefaultId(tenant, 'type', key)`). */
  @UuidField({ nullable: true }) actionTypeId: string | null;
  @BooleanField() status: boolean;
  @BooleanField() isDeleted: boolean;
  @IntField({ min: 0 }) version: number;
}

/** evt.settings.action-template.created | updated | deleted */
export class ActionTemplateEvent {
  @UuidField() tenantId: string;
  @NestedField(() => ActionTemplatePayload) actionTemplate: ActionTemplatePayload;
}

export const ACTIONS_EVENTS = {
  'evt.actions.action.created': eventEntry(ActionEvent, 'An action was created (by a user, a bulk duplicate, or the system for a step someone must take).'),
  'evt.actions.action.updated': eventEntry(ActionEvent, 'An action changed (fields, status, assignees, an assignee\'s own status).'),
  'evt.actions.action.assigned': eventEntry(ActionAssignedEvent, 'People were newly assigned to an action (newAssigneeIds: whom to tell).'),
  'evt.actions.action.completed': eventEntry(ActionEvent, 'An action reached Completed (every assignee completed, or its cause was settled).'),
  'evt.actions.action.deleted': eventEntry(ActionEvent, 'An action was deleted (softly).'),
  'evt.actions.action.overdue': eventEntry(ActionEvent, 'An open action passed its due date and was moved to Overdue by the sweep.'),
  'evt.settings.action-template.created': eventEntry(ActionTemplateEvent, 'An action template was created (also the defaults of a new tenant).'),
  'evt.settings.action-template.updated': eventEntry(ActionTemplateEvent, 'An action template changed.'),
  'evt.settings.action-template.deleted': eventEntry(ActionTemplateEvent, 'An action template was deleted (softly).'),
} as const;

/** The action template subjects, for the areas that project templates. */
export const ACTION_TEMPLATE_SUBJECTS = [
  'evt.settings.action-template.created',
  'evt.settings.action-template.updated',
  'evt.settings.action-template.deleted',
] as const satisfies readonly (keyof typeof ACTIONS_EVENTS)[];

/** The actions area's own subjects. */
export const ACTION_SUBJECTS = {
  created: 'evt.actions.action.created',
  updated: 'evt.actions.action.updated',
  assigned: 'evt.actions.action.assigned',
  completed: 'evt.actions.action.completed',
  deleted: 'evt.actions.action.deleted',
  overdue: 'evt.actions.action.overdue',
} as const satisfies Record<string, keyof typeof ACTIONS_EVENTS>;
