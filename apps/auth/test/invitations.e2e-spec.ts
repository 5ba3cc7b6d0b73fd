import { once } from 'node:events';
import { AddressInfo } from 'node:net';
import { Db } from '@ddm/platform';
import { allTenants, expectErrorBody, mintToken, startTestService, TestService, tokenFor } from '@ddm/testing';
import { SMTPServer } from 'smtp-server';
import { AuthModule } from '../src/auth.module';
import { authDataSource } from '../src/data-source';
import { SeedResult, seedAuth } from '../src/seed';
import { TenantsService } from '../src/tenants/tenants.service';
import { collect, position, projectSettings, until } from './fixtures/events';
import { ISO, USER_FIELDS } from './fixtures/fields';
import { expectNullRefused } from './fixtures/nulls';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** The message as a reader sees it: quoted-printable soft breaks and escapes undone. */
function readable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

type Tenant = SeedResult['tenants'][number];

describe('invitations (e2e, real SMTP server, Postgres and NATS)', () => {
  let smtp: SMTPServer;
  const inbox: Received[] = [];
  let svc: TestService;
  let db: Db;
  let demo: Tenant;
  let other: Tenant;
  const admin = tokenFor('admin@demo.test');
  const plain = tokenFor('user@demo.test');
  const analyst = position({ positionName: 'Analyst' });

  const mailsTo = (address: string) => inbox.filter((m) => m.to.includes(address));
  const waitForMail = (address: string, count = 1) => until(async () => mailsTo(address).length >= count && mailsTo(address), `mail to ${address}`);
  const roleIdOf = async (name: string) => (await db.query<{ id: string }>(`SELECT id FROM auth.tenant_roles WHERE tenant_id = $1 AND role_name = $2`, [demo.id, name]))[0].id;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // The server refuses any mailbox whose name starts with "reject".
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('reject')) return callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          inbox.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const { port } = smtp.server.address() as AddressInfo;
    // Read by the mail module when the service starts.
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    process.env.MAIL_FROM = 'DDM Invitations <invites@ddm.test>';
    process.env.APP_URL = 'http://app.test';

    svc = await startTestService(AuthModule, { area: 'auth', dataSource: authDataSource });
    db = allTenants(svc.app.get(Db));
    [demo, other] = (await seedAuth(svc.app.get(TenantsService), db)).tenants;
    await projectSettings(svc, demo.id, { positions: [analyst] });
  });
  afterAll(async () => {
    await svc?.close();
    await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
  });

  describe('POST /auth/v1/user/create', () => {
    it('answers 200 with the INVITED user, and the invitation arrives with a sign-in link', async () => {
      const events = await collect(svc, 'evt.auth.user.created');
      const res = await svc.http.post('/auth/v1/user/create', {
        token: admin,
        body: {
          tenantId: demo.id,
          email: 'Nia.New+1@Example.test',
          firstName: 'Nia',
          lastName: 'New',
          mobilePhone: '+1 555 0100',
          roleIds: [await roleIdOf('Global User')],
          positionIds: [analyst.id],
          managerId: demo.users[1].id,
          employeeId: 'E-1',
          employeeType: 'Full time',
          customAttributes: { costCentre: 'CC-1' },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'User invited successfully' });
      const u = res.body.data;
      expect(Object.keys(u).sort()).toEqual(USER_FIELDS);
      expect(u).toMatchObject({
        email: 'nia.new+1@example.test',
        loginId: 'nia.new+1@example.test',
        name: 'Nia New',
        status: 'INVITED',
        idpUserId: null,
        lastLoginDate: null,
        activeTenantId: demo.id,
        userId: '10050',
        employeeId: 'E-1',
        employeeType: 'Full time',
        customAttributes: { costCentre: 'CC-1' },
        createdBy: 'Ada Admin',
        manager: expect.objectContaining({ email: 'manager@demo.test' }),
        userRoles: [expect.objectContaining({ roleName: 'Global User' })],
        userPositions: [expect.objectContaining({ positionName: 'Analyst' })],
      });
      expect(u.createdOn).toMatch(ISO);

      const [mail] = await waitForMail('nia.new+1@example.test');
      expect(mail.from).toBe('invites@ddm.test');
      const text = readable(mail.raw);
      expect(text).toMatch(/^To: nia\.new\+1@example\.test$/m);
      expect(text).toMatch(/^Subject: You are invited to Demo Co$/m);
      expect(text).toContain(`http://app.test/signin?tenant=${demo.id}&email=nia.new%2B1%40example.test`);
      expect(text).toContain('Ada Admin invited you to Demo Co');
      // sent_by holds the inviter's user id.
      const [row] = await db.query<{ status: string; email: string; sent_by: string }>(
        `SELECT i.status, i.email, s.name AS sent_by FROM auth.invitations i JOIN auth.users s ON s.id = i.sent_by WHERE i.user_id = $1`,
        [u.id],
      );
      expect(row).toEqual({ status: 'SENT', email: 'nia.new+1@example.test', sent_by: 'Ada Admin' });

      const event = await until(async () => events.messages.find((m) => m.data.user?.id === u.id), 'evt.auth.user.created');
      events.stop();
      expect(event.data).toMatchObject({
        tenantId: demo.id,
        user: { id: u.id, email: 'nia.new+1@example.test', name: 'Nia New', status: 'INVITED', positions: [{ id: analyst.id, positionName: 'Analyst', autoProvisioned: false }], manager: { name: 'Max Manager' } },
      });
    });

    it('sends nothing when inviteViaEmail is false (also as the string "false")', async () => {
      const res = await svc.http.post('/auth/v1/user/create', {
        token: admin,
        body: { tenantId: demo.id, email: 'quiet@example.test', firstName: 'Quiet', lastName: 'One', inviteViaEmail: 'false' },
      });
      expect(res.status).toBe(200);
      // A later invitation's mail has arrived: one for quiet@ would have arrived before it.
      const barrier = await svc.http.post('/auth/v1/user/create', {
        token: admin,
        body: { tenantId: demo.id, email: 'quiet.barrier@example.test', firstName: 'Quiet', lastName: 'Barrier' },
      });
      expect(barrier.status).toBe(200);
      await waitForMail('quiet.barrier@example.test');
      expect(mailsTo('quiet@example.test')).toEqual([]);
    });

    it('409 for an email the tenant already has, whatever its case; no mail goes out', async () => {
      const before = inbox.length;
      const res = await svc.http.post('/auth/v1/user/create', { token: admin, body: { tenantId: demo.id, email: 'USER@demo.test', firstName: 'U', lastName: 'U' } });
      expectErrorBody(res, 409, '/auth/v1/user/create');
      expect(res.body.message).toBe('Email already exists');
      expect(inbox.length).toBe(before);
    });

    it('the same person may be invited into another tenant (email unique per tenant)', async () => {
      const res = await svc.http.post('/auth/v1/user/create', {
        token: tokenFor('admin@other.test'),
        body: { tenantId: other.id, email: 'auditor@demo.test', firstName: 'Otto', lastName: 'Auditor' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: demo.users[3].id, status: 'INVITED', userId: '10001' });
      const [mail] = await waitForMail('auditor@demo.test');
      expect(readable(mail.raw)).toContain(`tenant=${other.id}`);
    });

    it('400 listing every bad field', async () => {
      const res = await svc.http.post('/auth/v1/user/create', {
        token: admin,
        body: {
          tenantId: demo.id,
          email: 'not-an-email',
          lastName: 'x'.repeat(101),
          roleIds: 'all',
          groups: [{ groupId: analyst.id, isPrimaryOrg: true }, { groupId: demo.id, isPrimaryOrg: true }],
          inviteViaEmail: 'maybe',
          customAttributes: [1],
          isAdmin: true,
        },
      });
      expectErrorBody(res, 400);
      expect([...new Set(res.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(
        ['customAttributes', 'email', 'firstName', 'groups', 'inviteViaEmail', 'isAdmin', 'lastName', 'roleIds'].sort(),
      );
    });

    it('400 naming the field for a null list, flag or customAttributes; null texts and manager are left out', async () => {
      for (const field of ['roleIds', 'positionIds', 'groups', 'customAttributes', 'inviteViaEmail']) {
        const res = await svc.http.post('/auth/v1/user/create', { token: admin, body: { tenantId: demo.id, email: 'nullish@example.test', firstName: 'N', lastName: 'U', [field]: null } });
        expectNullRefused(res, field);
      }
      const bulk = await svc.http.post('/auth/v1/user/bulk-invite', { token: admin, body: { tenantId: demo.id, users: [{ email: 'nullish@example.test', firstName: 'N', lastName: 'U', roleIds: null }] } });
      expectNullRefused(bulk, 'users.0.roleIds');
      expect((await db.query(`SELECT 1 FROM auth.users WHERE email = 'nullish@example.test'`)).length).toBe(0);
      const res = await svc.http.post('/auth/v1/user/create', {
        token: admin,
        body: { tenantId: demo.id, email: 'nullish@example.test', firstName: 'N', lastName: 'U', mobilePhone: null, managerId: null, employeeId: null, employeeType: null, inviteViaEmail: false },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ mobilePhone: null, manager: null, employeeId: null, employeeType: null, status: 'INVITED' });
    });

    it('404 for a position or role the tenant does not know; 403 without manage:users or in another tenant', async () => {
      const unknown = await svc.http.post('/auth/v1/user/create', {
        token: admin,
        body: { tenantId: demo.id, email: 'nobody1@example.test', firstName: 'N', lastName: 'B', positionIds: ['0190a000-0000-7000-8000-00000000dead'] },
      });
      expectErrorBody(unknown, 404);
      expect(unknown.body.message).toMatch(/^Position .* not found in this tenant$/);
      const otherRole = (await db.query<{ id: string }>(`SELECT id FROM auth.tenant_roles WHERE tenant_id = $1 LIMIT 1`, [other.id]))[0].id;
      expectErrorBody(
        await svc.http.post('/auth/v1/user/create', { token: admin, body: { tenantId: demo.id, email: 'nobody2@example.test', firstName: 'N', lastName: 'B', roleIds: [otherRole] } }),
        404,
      );
      const denied = await svc.http.post('/auth/v1/user/create', { token: plain, body: { tenantId: demo.id, email: 'nobody3@example.test', firstName: 'N', lastName: 'B' } });
      expectErrorBody(denied, 403);
      expect(denied.body.message).toBe('Missing permission "manage:users"');
      expectErrorBody(await svc.http.post('/auth/v1/user/create', { token: admin, body: { tenantId: other.id, email: 'nobody4@example.test', firstName: 'N', lastName: 'B' } }), 403);
      expect((await db.query(`SELECT 1 FROM auth.users WHERE email LIKE 'nobody%'`)).length).toBe(0);
    });
  });

  describe('POST /auth/v1/user/bulk-invite', () => {
    it('answers 201: each item succeeds or fails on its own, the successful ones are invited and mailed', async () => {
      const gu = await roleIdOf('Global User');
      const users = [
        { email: 'bulk.one@example.test', firstName: 'Bulk', lastName: 'One', roleIds: [gu] },
        { email: 'admin@demo.test', firstName: 'Dup', lastName: 'Licate' },
        { email: 'bulk.two@example.test', firstName: 'Bulk', lastName: 'Two', positionIds: [analyst.id] },
        { email: 'BULK.ONE@example.test', firstName: 'Bulk', lastName: 'Again' },
        { email: 'bulk.three@example.test', firstName: 'Bulk', lastName: 'Three', roleIds: ['0190a000-0000-7000-8000-00000000dead'] },
        { email: 'reject.bulk@example.test', firstName: 'Refused', lastName: 'Mailbox' },
        { email: 'bulk.four@example.test', firstName: 'Bulk', lastName: 'Four', inviteViaEmail: false },
      ];
      const res = await svc.http.post('/auth/v1/user/bulk-invite', { token: admin, body: { tenantId: demo.id, users } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ statusCode: 201, message: 'Users invited', timestamp: expect.stringMatching(ISO) });
      expect(res.body.data).toEqual({
        total: 7,
        successful: 4,
        failed: 3,
        results: [
          { email: 'bulk.one@example.test', success: true, message: 'User invited and the invitation email sent' },
          { email: 'admin@demo.test', success: false, message: 'Email already exists' },
          { email: 'bulk.two@example.test', success: true, message: 'User invited and the invitation email sent' },
          { email: 'bulk.one@example.test', success: false, message: 'Email appears more than once in this request' },
          { email: 'bulk.three@example.test', success: false, message: 'Role 0190a000-0000-7000-8000-00000000dead not found in this tenant' },
          { email: 'reject.bulk@example.test', success: true, message: expect.stringMatching(/^User invited, but the invitation email could not be sent: .*550/) },
          { email: 'bulk.four@example.test', success: true, message: 'User invited (no email requested)' },
        ],
      });
      await waitForMail('bulk.one@example.test');
      await waitForMail('bulk.two@example.test');
      expect(mailsTo('reject.bulk@example.test')).toEqual([]);
      expect(mailsTo('bulk.four@example.test')).toEqual([]);
      const listed = await svc.http.get('/auth/v1/user?search=bulk&status=INVITED&sortBy=email', { token: admin });
      expect(listed.body.data.data.map((u: { email: string; userId: string }) => u.email)).toEqual([
        'bulk.four@example.test',
        'bulk.one@example.test',
        'bulk.two@example.test',
        'reject.bulk@example.test',
      ]);
      // Display ids are issued in one block, in request order.
      const ids = listed.body.data.data.map((u: { userId: string }) => Number(u.userId)).sort();
      expect(ids[3] - ids[0]).toBe(3);
      const outcomes = await db.query<{ email: string; status: string }>(`SELECT email, status FROM auth.invitations WHERE email LIKE '%bulk%' ORDER BY email`);
      expect(outcomes).toEqual([
        { email: 'bulk.one@example.test', status: 'SENT' },
        { email: 'bulk.two@example.test', status: 'SENT' },
        { email: 'reject.bulk@example.test', status: 'FAILED' },
      ]);
    });

    it('400 for no users, more than 500, a bad item (by its index), or a tenant other than the one checked', async () => {
      expectErrorBody(await svc.http.post('/auth/v1/user/bulk-invite', { token: admin, body: { tenantId: demo.id, users: [] } }), 400);
      const many = Array.from({ length: 501 }, (_, i) => ({ email: `many${i}@example.test`, firstName: 'M', lastName: 'N' }));
      const tooMany = await svc.http.post('/auth/v1/user/bulk-invite', { token: admin, body: { tenantId: demo.id, users: many } });
      expectErrorBody(tooMany, 400);
      expect(tooMany.body.errors).toEqual([{ field: 'users', message: expect.stringMatching(/500/) }]);
      const bad = await svc.http.post('/auth/v1/user/bulk-invite', {
        token: admin,
        body: { tenantId: demo.id, users: [{ email: 'ok@example.test', firstName: 'O', lastName: 'K' }, { email: 'x', firstName: 'O' }] },
      });
      expectErrorBody(bad, 400);
      expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['users.1.email', 'users.1.lastName']);
      const mixed = await svc.http.post('/auth/v1/user/bulk-invite', {
        token: admin,
        body: { tenantId: demo.id, users: [{ tenantId: other.id, email: 'mixed@example.test', firstName: 'M', lastName: 'X', inviteViaEmail: false }] },
      });
      expect(mixed.status).toBe(201);
      expect(mixed.body.data).toMatchObject({ successful: 0, failed: 1, results: [{ success: false, message: 'tenantId must be the tenant of the request' }] });
      expectErrorBody(await svc.http.post('/auth/v1/user/bulk-invite', { token: plain, body: { tenantId: demo.id, users: [{ email: 'p@example.test', firstName: 'P', lastName: 'Q' }] } }), 403);
    });
  });

  describe('POST /auth/v1/user/bulk-resend-invite', () => {
    it('answers 201 with one result per user: invited ones are mailed again, the others say why not', async () => {
      const invited = (await svc.http.get('/auth/v1/user?search=bulk.two', { token: admin })).body.data.data[0];
      const refused = (await svc.http.get('/auth/v1/user?search=reject.bulk', { token: admin })).body.data.data[0];
      const quiet = (await svc.http.get('/auth/v1/user?search=quiet@', { token: admin })).body.data.data[0];
      const unknown = '0190a000-0000-7000-8000-00000000beef';
      const otherTenants = other.users[0].id;
      const active = demo.users[2].id;
      const before = mailsTo('bulk.two@example.test').length;
      const res = await svc.http.post('/auth/v1/user/bulk-resend-invite', {
        token: admin,
        body: { tenantId: demo.id, userIds: [invited.id, unknown, refused.id, otherTenants, active, quiet.id] },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ statusCode: 201, message: 'Invitations resent' });
      expect(res.body.data).toEqual({
        total: 6,
        successful: 2,
        failed: 4,
        results: [
          { email: 'bulk.two@example.test', success: true, message: 'Invitation email sent' },
          { email: '', success: false, message: `User ${unknown} not found in this tenant` },
          { email: 'reject.bulk@example.test', success: false, message: expect.stringMatching(/^Invitation email could not be sent: .*550.*Mailbox unavailable/) },
          { email: '', success: false, message: `User ${otherTenants} not found in this tenant` },
          { email: 'user@demo.test', success: false, message: 'User has already accepted the invitation' },
          { email: 'quiet@example.test', success: true, message: 'Invitation email sent' },
        ],
      });
      const mails = await waitForMail('bulk.two@example.test', before + 1);
      expect(readable(mails[mails.length - 1].raw)).toContain(`http://app.test/signin?tenant=${demo.id}&email=bulk.two%40example.test`);
      await waitForMail('quiet@example.test');
      const failed = await db.query<{ status: string; error: string }>(`SELECT status, error FROM auth.invitations WHERE email = 'reject.bulk@example.test' ORDER BY created_on`);
      expect(failed.map((f) => f.status)).toEqual(['FAILED', 'FAILED']);
      expect(failed[1].error).toMatch(/550/);
    });

    it('a user who signed in has accepted: no more invitations', async () => {
      const signedIn = await svc.http.get('/auth/v1/user/details', { token: mintToken('idp|bulk-one', { email: 'bulk.one@example.test' }) });
      expect(signedIn.body.data.status).toBe('ACTIVE');
      const res = await svc.http.post('/auth/v1/user/bulk-resend-invite', { token: admin, body: { tenantId: demo.id, userIds: [signedIn.body.data.id] } });
      expect(res.body.data).toEqual({ total: 1, successful: 0, failed: 1, results: [{ email: 'bulk.one@example.test', success: false, message: 'User has already accepted the invitation' }] });
    });

    it('400 for no ids, more than 500, repeated or malformed ids; 403 without manage:users', async () => {
      const path = '/auth/v1/user/bulk-resend-invite';
      const empty = await svc.http.post(path, { token: admin, body: { tenantId: demo.id, userIds: [] } });
      expectErrorBody(empty, 400);
      expect(empty.body.errors).toEqual([{ field: 'userIds', message: expect.any(String) }]);
      const many = Array.from({ length: 501 }, (_, i) => `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`);
      expectErrorBody(await svc.http.post(path, { token: admin, body: { tenantId: demo.id, userIds: many } }), 400);
      expectErrorBody(await svc.http.post(path, { token: admin, body: { tenantId: demo.id, userIds: [demo.users[0].id, demo.users[0].id] } }), 400);
      expectErrorBody(await svc.http.post(path, { token: admin, body: { tenantId: demo.id, userIds: ['10000'] } }), 400);
      expectErrorBody(await svc.http.post(path, { token: admin, body: { tenantId: demo.id, userIds: [demo.users[0].id], extra: 1 } }), 400);
      const denied = await svc.http.post(path, { token: plain, body: { tenantId: demo.id, userIds: [demo.users[0].id] } });
      expectErrorBody(denied, 403);
      expect(denied.body.message).toBe('Missing permission "manage:users"');
    });
  });
});
