import { TestSystem, startTestSystem, tokenFor, until } from '@ddm/testing';
import { openStream } from './fixtures/sse';

/**
 * The notifications area with the areas it hears from, as separate processes behind the gateway:
 * a delegation issued through the decision API reaches its recipient's list and their stream
 * opened through the gateway, on events only.
 */
describe('system: notifications behind the gateway, with auth, settings and decision', () => {
  let system: TestSystem;
  let userId: string;
  const admin = () => tokenFor('admin@demo.test');
  const user = () => tokenFor('user@demo.test');

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision', 'notifications'], seed: ['decision'] });
    userId = system.seeded.tenants.find((t) => t.name === 'Demo Co')!.users.find((u) => u.email === 'user@demo.test')!.id;
  }, 180_000);

  afterAll(async () => {
    await system?.close();
  });

  it('a delegation issued through the API reaches the recipient’s open stream and list, linking to it', async () => {
    const stream = await openStream(`${system.gateway.url}/v1/notifications/stream`, user());
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const decision = (await system.http.get('/decision/v1/decisions?search=Approve%20purchase%20orders&limit=1', { token: admin() })).body.data.data[0];
      const authority = decision.decisionAuthorities.find((a: { authorityType: string }) => a.authorityType === 'Approval');
      const issued = await system.http.post('/decision/v1/delegations', {
        token: admin(),
        body: {
          decisionId: decision.id,
          status: 'ISSUED',
          recipientType: 'SPECIFIC_PERSONNEL',
          delegationRecipients: [{ recipientUserId: userId }],
          delegationAuthorities: [{ authorityTypeId: authority.authorityTypeId, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '100', authorityLimitValueUnit: 'USD' }],
        },
      });
      expect(issued.status).toBe(200);
      const delegation = issued.body.data[0];
      const live = await until(
        () => stream.events.map((e) => JSON.parse(e.data!)).find((n: { entityId: string }) => n.entityId === delegation.id),
        'the notification on the stream through the gateway',
        20_000,
      );
      expect(live).toMatchObject({ templateKey: 'DELEGATION_ISSUED', userId, title: `Delegation ${delegation.delegationDisplayId} issued to you`, actionUrl: `http://localhost:8080/delegations/${delegation.id}` });
      const listed = await system.http.get('/v1/notifications?templateKey=DELEGATION_ISSUED&limit=100', { token: user() });
      expect(listed.status).toBe(200);
      expect(listed.body.data.data.filter((n: { entityId: string }) => n.entityId === delegation.id).map((n: { id: string }) => n.id)).toEqual([live.id]);
      const counted = await system.http.get('/v1/notifications/count?timePeriod=1m', { token: user() });
      expect(counted.body.data.unread).toBeGreaterThanOrEqual(1);
      // Through the gateway the spec's status of mark-all-read holds.
      expect((await system.http.post('/v1/notifications/mark-all-read', { token: user() })).status).toBe(201);
    } finally {
      stream.close();
    }
  });
});
