import { DELEGATION_SUBJECTS, endsDelegation } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/**
 * notifications.delegation_projection: each delegation's status, recipient and expiration date
 * (evt.decision.delegation.issued|updated|revoked, newest version kept; an ended one stays ended),
 * for the sweep that warns recipients 7 days before a delegation expires.
 */
export const DELEGATIONS: ProjectionSpec<(typeof DELEGATION_SUBJECTS)[number]> = {
  name: 'notifications-delegations-state',
  subjects: DELEGATION_SUBJECTS,
  table: 'notifications.delegation_projection',
  key: 'delegation_id',
  row: ({ subject, payload: e }) => ({
    id: e.delegationId,
    tenantId: e.tenantId,
    version: e.version ?? null,
    values: {
      delegation_display_id: e.delegationDisplayId ?? null,
      status: e.status ?? null,
      recipient_user_id: e.recipientUserId,
      recipient_position_id: e.recipientPositionId,
      expiration_date: e.expirationDate ?? null,
    },
    terminal: { column: 'ended_on', reached: endsDelegation(subject, e) },
  }),
};
