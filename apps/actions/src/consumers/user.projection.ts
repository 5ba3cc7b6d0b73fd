import { ProjectionSpec, UserSubject, userProjection } from '@ddm/platform';

/**
 * actions.user_projection: the members of each tenant (a row per tenant and user) with what the
 * §2.3 user summary shows of them (positions, primary organisation, manager): owners and
 * assignees are checked against it and embedded from it.
 */
export const USERS: ProjectionSpec<UserSubject> = userProjection({
  name: 'actions-auth-users',
  table: 'actions.user_projection',
  columns: ['email', 'name', 'display_name', 'profile_image_url', 'mobile_phone', 'status', 'positions', 'primary_organization_id', 'primary_organization', 'manager'],
});
