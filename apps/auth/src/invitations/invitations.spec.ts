import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ErrorCode } from '@ddm/contracts';
import { KnownRefs } from '../core/user-fields.rules';
import { BulkResendInviteDto } from './dto/bulk-resend.dto';
import { BulkInviteDto, CreateUserDto, MAX_BULK } from './dto/invite-user.dto';
import { MESSAGES, invitationError, invitationProblem, invitedMessage, repeatedEmails, resendRefusal, resentMessage } from './invitation.rules';

const T = '0190a000-0000-7000-8000-0000000000aa';
const OTHER = '0190a000-0000-7000-8000-0000000000bb';
const U = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`;

const problems = async <C extends object>(cls: new () => C, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

describe('invitation rules', () => {
  it('finds the repeated emails of a request, case-insensitively, keeping the first', async () => {
    expect([...repeatedEmails(['a@x.test', 'b@x.test', 'A@X.test', ' b@x.test', 'c@x.test'])]).toEqual([2, 3]);
    expect([...repeatedEmails(['a@x.test', 'b@x.test'])]).toEqual([]);
  });

  describe('what fails an item before anything is written', () => {
    const known: KnownRefs = { roles: new Map([['r1', ['view:decisions']], ['r2', ['manage:users']]]), positions: new Set(), groups: new Set(), members: new Set() };
    const facts = { tenantId: T, repeated: false, taken: false, known, callerKeys: new Set(['view:decisions']) };

    it('nothing, for a new email of the request tenant with known links (the tenant named in any case, or not named)', () => {
      expect(invitationProblem({ tenantId: T, roleIds: ['r1'] }, facts)).toBeNull();
      expect(invitationProblem({ tenantId: T.toUpperCase() }, facts)).toBeNull();
      expect(invitationProblem({}, facts)).toBeNull();
    });

    it('another tenant named is a 400 naming tenantId, whatever else is wrong', () => {
      const failure = invitationProblem({ tenantId: OTHER, roleIds: ['r9'] }, { ...facts, repeated: true, taken: true });
      expect(failure).toEqual({ kind: 'invalid', field: 'tenantId', message: MESSAGES.otherTenant });
      expect(invitationError(failure!)).toMatchObject({ code: ErrorCode.ValidationFailed, errors: [{ field: 'tenantId', message: MESSAGES.otherTenant }] });
      expect(invitationError(failure!).getStatus()).toBe(400);
    });

    it('then an email earlier in the request, then an email a member has: 409 without field errors', () => {
      const repeated = invitationProblem({ roleIds: ['r9'] }, { ...facts, repeated: true, taken: true });
      expect(repeated).toEqual({ kind: 'conflict', message: MESSAGES.repeated });
      const taken = invitationProblem({ roleIds: ['r9'] }, { ...facts, taken: true });
      expect(taken).toEqual({ kind: 'conflict', message: MESSAGES.emailExists });
      expect(invitationError(taken!)).toMatchObject({ code: ErrorCode.Conflict, errors: undefined });
      expect(invitationError(taken!).getStatus()).toBe(409);
    });

    it('then its links: an unknown id is a 404, a key the caller does not hold a 403', () => {
      const unknown = invitationProblem({ roleIds: ['r9'] }, facts);
      expect(unknown).toMatchObject({ kind: 'not_found', field: 'roleIds.0' });
      expect(invitationError(unknown!).getStatus()).toBe(404);
      // The 404 names the field and the index of the unknown id.
      expect(invitationError(unknown!).errors).toEqual([{ field: 'roleIds.0', message: 'Role r9 not found in this tenant' }]);
      const beyond = invitationProblem({ roleIds: ['r2'] }, facts);
      expect(beyond).toMatchObject({ kind: 'forbidden', field: 'roleIds' });
      expect(invitationError(beyond!).getStatus()).toBe(403);
    });
  });

  it('bulk-invite answers the failure, else whether the email went or was not asked for', () => {
    expect(invitedMessage({ failure: { message: 'Email already exists' }, mail: { ok: true } })).toBe('Email already exists');
    expect(invitedMessage({})).toBe(MESSAGES.invitedNoEmail);
    expect(invitedMessage({ mail: { ok: true } })).toBe(MESSAGES.invited);
    expect(invitedMessage({ mail: { ok: false, error: 'smtp down' } })).toBe('User invited, but the invitation email could not be sent: smtp down');
  });

  it('an invitation is sent again only to an invited member of the tenant', () => {
    expect(resendRefusal(U(1), { email: 'i@x.test', status: 'INVITED' })).toBeNull();
    expect(resendRefusal(U(1), undefined)).toEqual({ email: '', success: false, message: `User ${U(1)} not found in this tenant` });
    expect(resendRefusal(U(1), { email: 'a@x.test', status: 'ACTIVE' })).toEqual({ email: 'a@x.test', success: false, message: MESSAGES.accepted });
    expect(resendRefusal(U(1), { email: 'n@x.test', status: 'INACTIVE' })).toEqual({
      email: 'n@x.test',
      success: false,
      message: 'User is INACTIVE; only invited users can be sent an invitation',
    });
    expect(resentMessage({ ok: true })).toBe(MESSAGES.resent);
    expect(resentMessage({ ok: false, error: 'refused' })).toBe('Invitation email could not be sent: refused');
  });
});

describe('invitation input', () => {
  const person = (n: number) => ({ email: `p${n}@x.test`, firstName: 'P', lastName: 'Q' });

  it(`bulk-invite takes 1 to ${MAX_BULK} people`, async () => {
    expect(await problems(BulkInviteDto, { tenantId: T, users: Array.from({ length: MAX_BULK }, (_, i) => person(i)) })).toEqual([]);
    expect(await problems(BulkInviteDto, { tenantId: T, users: Array.from({ length: MAX_BULK + 1 }, (_, i) => person(i)) })).toEqual(['users']);
    expect(await problems(BulkInviteDto, { tenantId: T, users: [person(1)] })).toEqual([]);
    expect(await problems(BulkInviteDto, { tenantId: T, users: [] })).toEqual(['users']);
  });

  it(`bulk-resend-invite takes 1 to ${MAX_BULK} distinct user ids`, async () => {
    expect(await problems(BulkResendInviteDto, { tenantId: T, userIds: Array.from({ length: MAX_BULK }, (_, i) => U(i)) })).toEqual([]);
    expect(await problems(BulkResendInviteDto, { tenantId: T, userIds: Array.from({ length: MAX_BULK + 1 }, (_, i) => U(i)) })).toEqual(['userIds']);
    expect(await problems(BulkResendInviteDto, { tenantId: T, userIds: [U(1)] })).toEqual([]);
    expect(await problems(BulkResendInviteDto, { tenantId: T, userIds: [] })).toEqual(['userIds']);
    expect(await problems(BulkResendInviteDto, { tenantId: T, userIds: [U(1), U(1)] })).toEqual(['userIds']);
  });

  it('an invitation: a valid email, names 1 to 100 characters, mobile phone up to 40', async () => {
    expect(await problems(CreateUserDto, { tenantId: T, email: 'a@x.test', firstName: 'f'.repeat(100), lastName: 'l', mobilePhone: '1'.repeat(40) })).toEqual([]);
    expect(await problems(CreateUserDto, { tenantId: T, email: 'a@', firstName: 'f'.repeat(101), lastName: '', mobilePhone: '1'.repeat(41) })).toEqual([
      'email',
      'firstName',
      'lastName',
      'mobilePhone',
    ]);
  });
});
