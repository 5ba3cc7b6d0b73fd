/** The rules of action templates that need no database; unit-tested in action-templates.spec.ts. */
import { DEFAULT_ACTION_TYPES, DefaultActionTypeKey, actionDefaultId } from '@ddm/contracts';

export const ACTION_TEMPLATE_SORTS = ['name', 'createdOn'] as const;
export type ActionTemplateSort = (typeof ACTION_TEMPLATE_SORTS)[number];

/** The templates every tenant starts with, each opening actions of one default type. */
export const DEFAULT_ACTION_TEMPLATES: readonly { key: string; name: string; description: string; type: DefaultActionTypeKey }[] = [
  { key: 'SEND_EMAIL', name: 'Send Email', description: 'Write and send an email.', type: 'EMAIL' },
  { key: 'SCHEDULE_MEETING', name: 'Schedule Meeting', description: 'Find a time and invite the people concerned.', type: 'MEETING' },
  { key: 'REVIEW_DOCUMENT', name: 'Review Document', description: 'Read a document and give your comments.', type: 'REVIEW' },
  { key: 'PREPARE_REPORT', name: 'Prepare Report', description: 'Gather the figures and write the report.', type: 'TASK' },
];

/** The tenant's default templates with their derived ids and their type's id (both as the actions area derives them). */
export function defaultTemplates(tenantId: string) {
  return DEFAULT_ACTION_TEMPLATES.map((t) => ({ ...t, id: actionDefaultId(tenantId, 'template', t.key), actionTypeId: actionDefaultId(tenantId, 'type', t.type) }));
}

/** The default action type whose id is `actionTypeId` in the tenant, as the actions area answers it; null for any other. */
export function actionTypeOf(tenantId: string, actionTypeId: string | null) {
  if (!actionTypeId) return null;
  const t = DEFAULT_ACTION_TYPES.find((d) => actionDefaultId(tenantId, 'type', d.type) === actionTypeId.toLowerCase());
  return t ? { id: actionTypeId.toLowerCase(), tenantId, type: t.type, name: t.name, typeIcon: t.typeIcon, status: true, isCustom: false } : null;
}
