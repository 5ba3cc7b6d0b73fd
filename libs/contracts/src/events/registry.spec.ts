import 'reflect-metadata';
import { LOGICAL } from '../messaging/subjects';
import { EVENT_REGISTRY, EVENT_SUBJECTS, isPublishableSubject, readEvent, validateEvent } from './registry';
import { SETTINGS_EVENT_SUBJECTS } from './settings.events';

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
    expect(validateEvent(EVENT_SUBJECTS.delegationIssued, { tenantId: 42 })[0]).toBe('tenantId must be a UUID');
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
      'delegationId must be a UUID',
      'decisionId must be a UUID',
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
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.decisionRoleUpdated, { tenantId: TENANT })).toEqual(['decisionRole must be an object']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.decisionRoleDeleted, { tenantId: TENANT, decisionRole: { id, status: 'ACTIVE', isDeleted: true } })).toEqual([
      'decisionRole.roleName must be a string',
    ]);
    const groupType = { id, groupTypeName: 'Regions', status: 'ACTIVE', isDefault: false, addressEnabled: false, isDeleted: false };
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupTypeCreated, { tenantId: TENANT, groupType })).toEqual([]);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupTypeUpdated, { tenantId: TENANT, groupType: { ...groupType, id: undefined } })).toEqual(['groupType.id must be a UUID']);
    const position = { id, positionId: '10000', status: 'ACTIVE', isDeleted: false, externalId: null, isSCIMProvisioned: false };
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.positionCreated, { tenantId: TENANT, position })).toEqual(['position.positionName must be a string']);
    const group = { id, groupId: 'ABC123', groupName: 'Finance', displayName: null, tenantGroupTypeId: null, tenantGroupTypeName: null, status: 'ACTIVE', isDeleted: true, externalId: null, instanceId: null };
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupDeleted, { tenantId: TENANT, group })).toEqual([]);
  });

  it.each([EVENT_SUBJECTS.userCreated, EVENT_SUBJECTS.userUpdated, EVENT_SUBJECTS.userDeleted])('accepts a user event on %s and requires user.id', async (subject) => {
    expect(validateEvent(subject, user)).toEqual([]);
    expect(validateEvent(subject, { tenantId: TENANT })).toEqual(['user must be an object']);
    expect(validateEvent(subject, { tenantId: TENANT, user: { ...user.user, id: undefined } })).toEqual(['user.id must be a UUID']);
  });
});

describe('the registry', () => {
  it('refuses a subject it does not hold, and one outside the naming scheme', async () => {
    expect(validateEvent('evt.nowhere.thing.created', { tenantId: TENANT })).toEqual(['subject "evt.nowhere.thing.created" is not in the event registry (libs/contracts/src/events)']);
    expect(validateEvent('matrix created', {})).toEqual(['subject "matrix created" is not evt.<area>.<entity>.<verb>, job.<area>.<name> or auth.caller.changed']);
    expect(isPublishableSubject('evt.nowhere.thing.created')).toBe(false);
    expect(isPublishableSubject(EVENT_SUBJECTS.delegationIssued)).toBe(true);
  });

  it('allows fields a payload class does not know (a producer may add fields)', async () => {
    expect(validateEvent(EVENT_SUBJECTS.delegationIssued, { ...delegation, approvedBy: 'someone' })).toEqual([]);
  });

  it('requires a tenantId of every evt.* payload class', async () => {
    for (const subject of Object.keys(EVENT_REGISTRY).filter((s) => s.startsWith('evt.'))) {
      expect(validateEvent(subject, {})).toContain('tenantId must be a UUID');
    }
  });
});

describe('readEvent: a consumer reads a payload tolerantly, then validates it', () => {
  it('reads ids that are not UUIDs as null where null is allowed, ids lower case, arrays cleaned, unique and capped', async () => {
    const { payload, problems } = readEvent(EVENT_SUBJECTS.delegationIssued, {
      ...delegation,
      delegationId: delegation.delegationId.toUpperCase(),
      issuerUserId: 'robert',
      recipientPositionId: 7,
      pathways: [' Matrix ', 'Matrix', '', 5, 'x'.repeat(300), ...Array.from({ length: 100 }, (_, i) => `p${i}`)],
      groupIds: ['nope', ...Array.from({ length: 600 }, (_, i) => `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`)],
    });
    expect(problems).toEqual([]);
    const read = payload as typeof delegation & { pathways: string[]; groupIds: string[]; issuerUserId: null; recipientPositionId: null };
    expect(read.delegationId).toBe(delegation.delegationId);
    expect(read.issuerUserId).toBeNull();
    expect(read.recipientPositionId).toBeNull();
    expect(read.pathways).toHaveLength(50);
    expect(read.pathways.slice(0, 2)).toEqual(['Matrix', 'x'.repeat(100)]);
    expect(read.groupIds).toHaveLength(500);
  });

  it('still refuses what it cannot repair: a required id that is not a UUID, an unknown type, a missing array', async () => {
    expect(readEvent(EVENT_SUBJECTS.delegationIssued, { ...delegation, delegationId: 'x' }).problems).toEqual(['delegationId must be a UUID']);
    expect(readEvent(EVENT_SUBJECTS.delegationIssued, { ...delegation, issuerType: 'KING' }).problems).toEqual([
      'issuerType must be one of ROOT_AUTHORITY, PERSONNEL_IN_POSITION, POSITION_ONLY, SPECIFIC_PERSONNEL',
    ]);
    expect(readEvent(EVENT_SUBJECTS.delegationIssued, { ...delegation, pathways: 'Matrix' }).problems).toEqual(['pathways must be an array']);
    expect(readEvent(EVENT_SUBJECTS.delegationIssued, null).problems).toEqual(['payload must be an object']);
  });

  it('leaves the message it read unchanged', async () => {
    const input = { ...delegation, issuerUserId: 'robert' };
    readEvent(EVENT_SUBJECTS.delegationIssued, input);
    expect(input.issuerUserId).toBe('robert');
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
