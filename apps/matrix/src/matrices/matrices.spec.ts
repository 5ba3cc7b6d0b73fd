import { StoredMatrix, countRange, matrixRefs, patchedBody, pick, refIdsByKind, storedBody, unknownRefs, unknownSelectFields } from './matrix.rules';

describe('matrix rules', () => {
  it('count ranges compare numbers; "Unlimited" (any case) or nothing is no upper bound', () => {
    expect(countRange(undefined)).toBeNull();
    expect(countRange({})).toBeNull();
    expect(countRange({ minValue: '2', maxValue: 'Unlimited' })).toEqual({ min: 2, max: null });
    expect(countRange({ minValue: '10', maxValue: 'unlimited' })).toEqual({ min: 10, max: null });
    expect(countRange({ maxValue: '9' })).toEqual({ min: null, max: 9 });
    expect(countRange({ minValue: '', maxValue: '' })).toBeNull();
  });

  it('select: unknown names are listed; pick keeps only the named fields', () => {
    expect(unknownSelectFields('id, matrixName,,decisionCount')).toEqual([]);
    expect(unknownSelectFields('id,secret,password')).toEqual(['secret', 'password']);
    expect(pick({ a: 1, b: 2, c: 3 }, ['a', 'c'])).toEqual({ a: 1, c: 3 });
    expect(pick({ a: 1 }, [])).toEqual({ a: 1 });
  });

  it('every id a body names comes with the field that carried it (lower case, in order); each kind is looked up once per id', () => {
    const refs = matrixRefs({
      ownerId: 'A1',
      copiedFromMatrix: null,
      groupIds: ['g1', 'g2'],
      userIds: ['u1'],
      matrixDecisions: [{ decisionId: 'd1' }],
      matrixAuthorityRoles: [{ authorityRoleId: 'r1' }],
      matrixDelegation: { authorityTypeIds: ['t1'], roleIds: ['r1'] },
      matrixSharing: { userIds: ['a1'], groupIds: ['g2'] },
    });
    expect(refs.map((r) => `${r.field}=${r.kind}:${r.id}`)).toEqual([
      'ownerId=user:a1',
      'groupIds.0=group:g1',
      'groupIds.1=group:g2',
      'userIds.0=user:u1',
      'matrixDecisions.0.decisionId=decision:d1',
      'matrixAuthorityRoles.0.authorityRoleId=decision_role:r1',
      'matrixDelegation.authorityTypeIds.0=authority_type:t1',
      'matrixDelegation.roleIds.0=decision_role:r1',
      'matrixSharing.userIds.0=user:a1',
      'matrixSharing.groupIds.0=group:g2',
    ]);
    expect(refIdsByKind(refs)).toMatchObject({ user: ['a1', 'u1'], group: ['g1', 'g2'], decision_role: ['r1'], matrix: [] });
    expect(unknownRefs(refs, new Set(['user:a1', 'group:g1', 'group:g2', 'decision:d1', 'decision_role:r1', 'authority_type:t1']))).toEqual([
      { field: 'userIds.0', message: 'User u1 is not a member of the tenant' },
    ]);
    expect(matrixRefs({})).toEqual([]);
  });

  it('a PATCH replaces only the fields it names (objects and lists whole, null clears); the stored matrix reads back as the body that keeps it', () => {
    const stored: StoredMatrix = {
      matrix_name: 'Finance', matrix_description: 'Spending', role_matrix: false, authority_matrix: true, status_name: 'Draft', owner_id: 'o1',
      copied_from: null, current_tab: 'grid', sharing_type: 'SHARED', sharing_option: 'USERS_GROUPS', sharing_link: false, viewer_adjustable_filters: true,
      shared_user_ids: ['u1'], shared_group_ids: ['g1'], section_ids: [], category_ids: [], group_ids: [], position_ids: ['p1', 'p2'], user_ids: [],
      decision_ids: ['d1', 'd2'], disabled_decision_ids: ['d2'], authority_roles: [{ authorityRoleId: 'r1', isEnabled: true }],
      delegation_filter: { issuanceStatusNames: ['ISSUED'] }, formatting: { valueRounding: '1' }, ext_enabled: true, ext_expiration_enabled: false,
      ext_expiration_date: null, ext_password_required: true,
    };
    const body = storedBody(stored);
    expect(body).toMatchObject({
      matrixName: 'Finance', ownerId: 'o1', matrixStatusId: '0199a000-0000-7000-8000-000000000002', positionIds: ['p1', 'p2'],
      matrixDecisions: [{ decisionId: 'd1', isDisabled: false }, { decisionId: 'd2', isDisabled: true }],
      matrixSharing: { type: 'SHARED', userIds: ['u1'], groupIds: ['g1'], viewerAdjustableFilters: true },
      matrixExternalSharing: { isEnabled: true, isPasswordRequired: true },
    });
    expect(body.matrixExternalSharing).not.toHaveProperty('password');
    const next = patchedBody(body, { matrixName: 'Renamed', matrixDescription: null, matrixExternalSharing: { isEnabled: false }, tenantId: 't' });
    expect(next).toEqual({ ...body, matrixName: 'Renamed', matrixDescription: null, matrixExternalSharing: { isEnabled: false } });
    expect(patchedBody(body, {})).toEqual(body);
  });
});
