import { ApiProperty } from '@nestjs/swagger';
import { ActionPayload, Caller, RecordPermission, recordPermissions, relationshipsOf } from '@ddm/contracts';
import { ACTION_PERMISSIONS, actionLink } from '../action.rules';

export class UserSummaryPositionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() positionName: string;
  @ApiProperty() autoProvisioned: boolean;
}

export class UserSummaryOrganizationView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true }) groupName: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) tenantGroupTypeId: string | null;
  @ApiProperty({ type: String, nullable: true }) tenantGroupTypeName: string | null;
  @ApiProperty({ type: String, nullable: true }) legalName: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'USD' }) baseCurrency: string | null;
}

export class UserSummaryManagerView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true }) profileImageUrl: string | null;
}

/** The user summary of spec §2.3 (owner, assignees): the auth area's user, its primary organisation as the settings area has it now. */
export class UserSummaryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true, description: 'null while the auth area has not announced the user' }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true }) profileImageUrl: string | null;
  @ApiProperty({ type: [UserSummaryPositionView] }) positions: UserSummaryPositionView[];
  @ApiProperty({ type: String, nullable: true }) mobilePhone: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) primaryOrganizationId: string | null;
  @ApiProperty({ type: UserSummaryOrganizationView, nullable: true }) primaryOrganization: UserSummaryOrganizationView | null;
  @ApiProperty({ type: UserSummaryManagerView, nullable: true }) manager: UserSummaryManagerView | null;
}

export class ActionTypeObjectView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ example: 'MEETING' }) type: string;
  @ApiProperty({ example: 'Meeting' }) name: string;
  @ApiProperty({ type: String, nullable: true }) typeIcon: string | null;
  @ApiProperty() status: boolean;
  @ApiProperty() isCustom: boolean;
}

export class ActionTemplateObjectView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() status: boolean;
  @ApiProperty({ type: ActionTypeObjectView, nullable: true }) type: ActionTypeObjectView | null;
}

export class ActionAssigneeView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The user' }) assigneeId: string;
  @ApiProperty({ type: UserSummaryView }) assignee: UserSummaryView;
  @ApiProperty({ format: 'uuid' }) actionStatusId: string;
  @ApiProperty({ example: 'In Progress' }) actionStatusName: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the assignee last set their status' }) actionTakenDate: string | null;
}

export class ActionFileView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() fileUrl: string;
  @ApiProperty({ type: String, nullable: true }) fileType: string | null;
  @ApiProperty({ type: String, nullable: true }) fileName: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ActionPriorityObjectView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() actionPriorityName: string;
  @ApiProperty() isEnabled: boolean;
  @ApiProperty() colorName: string;
}

export class ActionStatusObjectView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() actionStatusName: string;
  @ApiProperty() isEnabled: boolean;
}

/** Action (spec §2.2). */
export class ActionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Display id ("10000", ...)' }) actionId: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 200 }) actionName: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 5000 }) description: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) actionTypeId: string | null;
  @ApiProperty({ type: ActionTypeObjectView, nullable: true }) actionType: ActionTypeObjectView | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) actionTemplateId: string | null;
  @ApiProperty({ type: ActionTemplateObjectView, nullable: true }) actionTemplate: ActionTemplateObjectView | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) actionPriorityId: string | null;
  @ApiProperty({ format: 'uuid' }) actionStatusId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) decisionId: string | null;
  @ApiProperty({ type: String, nullable: true }) decisionDisplayId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) delegationId: string | null;
  @ApiProperty({ type: String, nullable: true }) delegationDisplayId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) documentId: string | null;
  @ApiProperty({ type: String, nullable: true }) documentDisplayId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) roleId: string | null;
  @ApiProperty({ description: 'Opaque encoded link to where the app shows the action' }) link: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) ownerId: string | null;
  @ApiProperty({ type: UserSummaryView, nullable: true }) owner: UserSummaryView | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) dueDate: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deletedOn: string | null;
  @ApiProperty({ description: 'Name of the creator; "System" for a system action' }) createdBy: string;
  @ApiProperty({ description: 'Name of the last editor; "System" for a change the system made' }) updatedBy: string;
  @ApiProperty({ type: String, nullable: true }) deletedBy: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The action this one was copied from' }) copiedFrom: string | null;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty() isSystemGenerated: boolean;
  @ApiProperty({ type: [ActionAssigneeView] }) assignees: ActionAssigneeView[];
  @ApiProperty({ type: [ActionFileView] }) files: ActionFileView[];
  @ApiProperty({ type: ActionPriorityObjectView, nullable: true }) priority: ActionPriorityObjectView | null;
  @ApiProperty({ type: ActionStatusObjectView }) status: ActionStatusObjectView;
  @ApiProperty({ type: [RecordPermission], description: 'For the caller: each key that applies to the action' }) permissions: RecordPermission[];
}

/** The view as the SQL builds it (action.sql.ts), with what the service needs besides: everything but the link and the caller's permissions. */
export type StoredActionView = Omit<ActionView, 'link' | 'permissions'> & { statusKey: string; systemKind: string | null; version: number };

/** The view for a caller: the stored view without its bookkeeping, its link and the caller's permissions on it. */
export function toActionView(stored: StoredActionView, caller: Pick<Caller, 'userId' | 'keys'>, appUrl: string): ActionView {
  const { statusKey: _key, systemKind: _kind, version: _version, ...view } = stored;
  const relationships = relationshipsOf(caller.userId, { owner: stored.ownerId, assignee: stored.assignees.map((a) => a.assigneeId) });
  return { ...view, link: actionLink(appUrl, stored), permissions: recordPermissions(caller, ACTION_PERMISSIONS, relationships) };
}

/** Only the named fields of a view (`select`); none = the whole view. */
export function selectActionFields(view: ActionView, fields: readonly string[] | null | undefined): Partial<ActionView> {
  if (!fields?.length) return view;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = view[f as keyof ActionView];
  return out as Partial<ActionView>;
}

/** What evt.actions.action.* carry of an action. */
export function toActionPayload(v: StoredActionView): ActionPayload {
  return {
    id: v.id,
    actionId: v.actionId,
    actionName: v.actionName,
    ownerId: v.ownerId,
    assigneeIds: v.assignees.map((a) => a.assigneeId),
    actionStatusId: v.actionStatusId,
    statusKey: v.statusKey,
    dueDate: v.dueDate,
    isSystemGenerated: v.isSystemGenerated,
    systemKind: v.systemKind,
    decisionId: v.decisionId,
    delegationId: v.delegationId,
    documentId: v.documentId,
    isDeleted: v.isDeleted,
    version: v.version,
  };
}

/** The fields of an action `select` may name, in the order they are answered. */
export const ACTION_FIELDS = [
  'id', 'actionId', 'tenantId', 'actionName', 'description', 'actionTypeId', 'actionType', 'actionTemplateId', 'actionTemplate', 'actionPriorityId',
  'actionStatusId', 'decisionId', 'decisionDisplayId', 'delegationId', 'delegationDisplayId', 'documentId', 'documentDisplayId', 'roleId', 'link',
  'ownerId', 'owner', 'dueDate', 'createdAt', 'updatedAt', 'deletedOn', 'createdBy', 'updatedBy', 'deletedBy', 'copiedFrom', 'isDeleted',
  'isSystemGenerated', 'assignees', 'files', 'priority', 'status', 'permissions',
] as const;

/** validate-action's answer. */
export class ValidateActionView {
  @ApiProperty({ type: String, nullable: true, description: 'The name of the open Delegation Request action; null when none exists' }) actionName: string | null;
  @ApiProperty() isExist: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The holder the request was sent to; null when none exists' }) userId: string | null;
}
