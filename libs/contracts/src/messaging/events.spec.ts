import { EVENT_SUBJECTS, SETTINGS_EVENT_SUBJECTS, validateEvent } from './events';
import { LOGICAL } from './subjects';

const TENANT = '01890a5d-ac96-774b-bcce-b302099a8057';

const delegation = {
  tenantId: TENANT,
  delegationId: '01890a5d-ac96-774b-bcce-b302099a8058',
  decisionId: '01890a5d-ac96-774b-bcce-b302099a8059',
  issuerType: 'ROOT_AUTHORITY',
  issuerUserId: null,
  issuerPositionId: null,
  recipientType: 'SPECIFIC_PERSONNEL',
  recipientUserId: '01890a5d-ac96-774b-bcce-b302099a805a',
  recipientPositionId: null,
  pathways: [],
  groupIds: [],
};

const user = {
  tenantId: TENANT,
  user: { id: '01890a5d-ac96-774b-bcce-b302099a805b', email: 'a@b.test', name: 'A', displayName: null, profileImageUrl: null, mobilePhone: null, status: 'ACTIVE' },
};

describe('validateEvent', () => {
  it.each([null, [], 'x', 3])('rejects the non-object payload %j', async (payload) => {
    expect(validateEvent(EVENT_SUBJECTS.userCreated, payload)).toEqual(['payload must be an object']);
  });

  it('requires a UUID tenantId on every evt.* subject', async () => {
    expect(validateEvent(EVENT_SUBJECTS.tenantCreated, { name: 'Acme' })).toEqual(['tenantId must be a UUID']);
    expect(validateEvent(EVENT_SUBJECTS.tenantCreated, { tenantId: 'acme', name: 'Acme' })).toEqual(['tenantId must be a UUID']);
    expect(validateEvent('evt.matrix.matrix.created', { tenantId: 42 })).toEqual(['tenantId must be a UUID']);
    expect(validateEvent(EVENT_SUBJECTS.tenantCreated, { tenantId: TENANT, name: 'Acme' })).toEqual([]);
  });

  it('does not require a tenantId on auth.caller.changed (an empty event drops every cached caller)', async () => {
    expect(validateEvent(EVENT_SUBJECTS.callerChanged, {})).toEqual([]);
  });

  it.each([EVENT_SUBJECTS.delegationIssued, EVENT_SUBJECTS.delegationUpdated, EVENT_SUBJECTS.delegationRevoked])('accepts a complete delegation event on %s', async (subject) => {
    expect(validateEvent(subject, delegation)).toEqual([]);
  });

  it('lists every missing part of a delegation event', async () => {
    expect(validateEvent(EVENT_SUBJECTS.delegationIssued, { decisionId: 7, pathways: 'a' })).toEqual([
      'tenantId must be a UUID',
      'delegationId must be a string',
      'decisionId must be a string',
      'pathways must be an array',
      'groupIds must be an array',
      'issuerType must be one of ROOT_AUTHORITY, PERSONNEL_IN_POSITION, POSITION_ONLY, SPECIFIC_PERSONNEL',
      'recipientType must be one of PERSONNEL_IN_POSITION, POSITION_ONLY, SPECIFIC_PERSONNEL',
    ]);
  });

  it('accepts a delegation event with a version, and refuses a version that is not a non-negative integer', async () => {
    expect(validateEvent(EVENT_SUBJECTS.delegationUpdated, { ...delegation, version: 7 })).toEqual([]);
    expect(validateEvent(EVENT_SUBJECTS.delegationUpdated, { ...delegation, version: -1 })).toEqual(['version must be a non-negative integer']);
    expect(validateEvent(EVENT_SUBJECTS.delegationUpdated, { ...delegation, version: '7' })).toEqual(['version must be a non-negative integer']);
  });

  it('refuses a delegation event whose issuer or recipient type is not one of the contract', async () => {
    expect(validateEvent(EVENT_SUBJECTS.delegationIssued, { ...delegation, issuerType: 'BOSS' })).toEqual([
      'issuerType must be one of ROOT_AUTHORITY, PERSONNEL_IN_POSITION, POSITION_ONLY, SPECIFIC_PERSONNEL',
    ]);
    expect(validateEvent(EVENT_SUBJECTS.delegationIssued, { ...delegation, recipientType: 'ROOT_AUTHORITY' })).toEqual([
      'recipientType must be one of PERSONNEL_IN_POSITION, POSITION_ONLY, SPECIFIC_PERSONNEL',
    ]);
  });

  it('requires the record of each settings event', async () => {
    const id = '01890a5d-ac96-774b-bcce-b302099a805c';
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.decisionRoleCreated, { tenantId: TENANT, decisionRole: { id, roleName: 'Approver', status: 'ACTIVE', isDeleted: false } })).toEqual([]);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.decisionRoleUpdated, { tenantId: TENANT })).toEqual(['decisionRole.id must be a string']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.decisionRoleDeleted, { tenantId: TENANT, decisionRole: { id } })).toEqual(['decisionRole.roleName must be a string']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupTypeCreated, { tenantId: TENANT, groupType: { id, groupTypeName: 'Regions' } })).toEqual([]);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupTypeUpdated, { tenantId: TENANT, groupType: {} })).toEqual(['groupType.id must be a string']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.positionCreated, { tenantId: TENANT, position: { id } })).toEqual(['position.positionName must be a string']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupDeleted, { tenantId: TENANT, group: { id, groupName: 'Finance' } })).toEqual([]);
  });

  it.each([EVENT_SUBJECTS.userCreated, EVENT_SUBJECTS.userUpdated, EVENT_SUBJECTS.userDeleted])('accepts a user event on %s and requires user.id', async (subject) => {
    expect(validateEvent(subject, user)).toEqual([]);
    expect(validateEvent(subject, { tenantId: TENANT })).toEqual(['user.id must be a string']);
    expect(validateEvent(subject, { tenantId: TENANT, user: { email: 'a@b.test' } })).toEqual(['user.id must be a string']);
  });
});

describe('EVENT_SUBJECTS', () => {
  it('names domain events evt.<area>.<entity>.<verb> and the caller event by its logical subject', async () => {
    const { callerChanged, ...domain } = EVENT_SUBJECTS;
    expect(callerChanged).toBe(LOGICAL.callerChanged);
    for (const subject of Object.values(domain)) expect(subject).toMatch(/^evt\.[a-z]+\.[a-z]+\.[a-z]+$/);
  });

  it('names the settings events evt.settings.<entity>.<verb>, each publishable', async () => {
    for (const subject of Object.values(SETTINGS_EVENT_SUBJECTS)) expect(subject).toMatch(/^evt\.settings\.[a-z-]+\.(created|updated|deleted)$/);
  });
});
