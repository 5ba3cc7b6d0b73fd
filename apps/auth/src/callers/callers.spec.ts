import { CallerRow, UNKNOWN_IDENTITY, acceptsInvitation, callerReply, isMember } from './caller.rules';

const U = '0190a000-0000-7000-8000-000000000001';
const T = '0190a000-0000-7000-8000-0000000000aa';

/** A live, active membership of an active tenant, with one role and its keys. */
const row = (over: Partial<CallerRow> = {}): CallerRow => ({
  id: U,
  email: 'ada@x.test',
  name: 'Ada',
  active_tenant_id: T,
  tenant_id: T,
  status: 'ACTIVE',
  is_deleted: false,
  tenant_status: 'ACTIVE',
  role_ids: ['r1'],
  keys: ['view:decisions'],
  ...over,
});

describe('caller rules', () => {
  it('a member is an active, not deleted membership of an active tenant; anything else is not', () => {
    expect(isMember(row())).toBe(true);
    expect(isMember(row({ status: 'INVITED' }))).toBe(false);
    expect(isMember(row({ status: 'INACTIVE' }))).toBe(false);
    expect(isMember(row({ is_deleted: true }))).toBe(false);
    // No membership in the tenant (the lookup's LEFT JOIN found none): nulls.
    expect(isMember(row({ status: null, is_deleted: null, tenant_status: null }))).toBe(false);
    expect(isMember(row({ tenant_status: 'SUSPENDED' }))).toBe(false);
  });

  it("a first request accepts an invitation: invited, not deleted, in an active tenant that the lookup named", () => {
    expect(acceptsInvitation(row({ status: 'INVITED' }))).toBe(true);
    expect(acceptsInvitation(row())).toBe(false);
    expect(acceptsInvitation(row({ status: 'INVITED', is_deleted: true }))).toBe(false);
    expect(acceptsInvitation(row({ status: 'INVITED', is_deleted: null }))).toBe(false);
    expect(acceptsInvitation(row({ status: 'INVITED', tenant_status: 'INACTIVE' }))).toBe(false);
    expect(acceptsInvitation(row({ status: 'INVITED', tenant_id: null }))).toBe(false);
  });

  it('answers an unknown identity as not found, with the message that says what to do', () => {
    expect(callerReply(undefined)).toEqual({ found: false, reason: UNKNOWN_IDENTITY });
  });

  it('answers a member with their roles and keys', () => {
    expect(callerReply(row())).toEqual({ found: true, userId: U, email: 'ada@x.test', name: 'Ada', tenantId: T, member: true, roleIds: ['r1'], keys: ['view:decisions'] });
  });

  it('answers someone who is not a member without roles or keys, and names a user without a name by their email', () => {
    expect(callerReply(row({ status: 'INVITED', name: null }))).toEqual({ found: true, userId: U, email: 'ada@x.test', name: 'ada@x.test', tenantId: T, member: false, roleIds: [], keys: [] });
    expect(callerReply(row({ tenant_id: null, status: null, is_deleted: null, tenant_status: null }))).toMatchObject({ found: true, tenantId: null, member: false, roleIds: [], keys: [] });
  });
});
