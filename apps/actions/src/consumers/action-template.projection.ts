import { ACTION_TEMPLATE_SUBJECTS } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/** actions.action_template_projection: the settings area's action templates, for the actionTemplateId an action names and its `actionTemplate`. */
export const ACTION_TEMPLATES: ProjectionSpec<(typeof ACTION_TEMPLATE_SUBJECTS)[number]> = {
  name: 'actions-settings-action-templates',
  subjects: ACTION_TEMPLATE_SUBJECTS,
  table: 'actions.action_template_projection',
  key: 'id',
  row: ({ payload: { tenantId, actionTemplate: t } }) => ({
    id: t.id,
    tenantId,
    version: t.version,
    values: { name: t.name, description: t.description, action_type_id: t.actionTypeId, status: t.status, is_deleted: t.isDeleted },
  }),
};
