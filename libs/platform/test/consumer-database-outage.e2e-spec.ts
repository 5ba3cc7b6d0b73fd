import { v7 as uuidv7 } from 'uuid';
import { createLogger } from '../src/logger';
import { until } from '@ddm/testing';
import { TENANT, WIDGET_CREATED, WidgetsPlatform, startWidgetsPlatform } from './fixtures/widgets';

const log = createLogger('platform-test', 'silent');

/**
 * A handler failing because Postgres is unreachable (here: the error pg gives for a connection the
 * server ended) is not the message's fault: the consumer holds the message and tries again until
 * the database answers, without spending a delivery, so even a consumer allowed a single delivery
 * applies it, once. Any other failure still spends its deliveries (poison after the last).
 */
describe('consumers while the database is unreachable (real Postgres and NATS)', () => {
  let platform: WidgetsPlatform | undefined;
  /** Per widget: how many times the handler ran, and the delivery count each time. */
  const runs = new Map<string, number[]>();
  /** Widgets whose handler fails as a lost connection this many times before it applies. */
  const unreachableFor = new Map<string, number>();

  beforeAll(async () => {
    platform = await startWidgetsPlatform('consumer-outage-test', 4, log);
    await platform.consumers.start({
      name: 'widget-holder',
      subjects: [WIDGET_CREATED],
      maxDeliver: 1,
      handle: async (m, tx) => {
        const widget = m.payload.name;
        runs.set(widget, [...(runs.get(widget) ?? []), m.deliveryCount]);
        const left = unreachableFor.get(widget) ?? 0;
        if (left > 0) {
          unreachableFor.set(widget, left - 1);
          throw new Error('Connection terminated unexpectedly');
        }
        if (widget.startsWith('broken')) throw new Error('a bug in the handler');
        await tx.query(`INSERT INTO platform_test.applied (message_id, applied_by) VALUES ($1, 'holder')`, [m.messageId]);
      },
    });
    platform.relay.start();
  });

  afterAll(() => platform?.close());

  const publish = (name: string) => platform!.db.transaction((tx) => tx.publish(WIDGET_CREATED, { tenantId: TENANT, name }));
  const applied = async () => Number((await platform!.ds.query(`SELECT count(*) AS n FROM platform_test.applied WHERE applied_by = 'holder'`))[0].n);

  it('holds a message through three lost-connection failures and applies it once, on its single delivery', async () => {
    const widget = `held-${uuidv7()}`;
    unreachableFor.set(widget, 3);
    await publish(widget);
    await until(async () => (await applied()) === 1, 'the held message to be applied', 20_000);
    expect(runs.get(widget)).toEqual([1, 1, 1, 1]); // four runs, all of delivery 1: no delivery spent on the outage
  });

  it('still gives up a message whose handler fails for another reason after its deliveries (poison)', async () => {
    const widget = `broken-${uuidv7()}`;
    const before = await applied();
    await publish(widget);
    await until(() => (runs.get(widget)?.length ?? 0) >= 1, 'the broken message to be tried', 10_000);
    // Done with in the broker's own record: nothing pending or awaiting an ack (terminated, not waiting for a redelivery).
    const { nats, ns } = platform!;
    await until(async () => {
      const info = await nats.jsm.consumers.info(ns.subjects.eventsStream, ns.subjects.durable('widget-holder'));
      return info.num_ack_pending === 0 && info.num_pending === 0;
    }, 'the broken message to be settled by the consumer', 10_000);
    expect(runs.get(widget)).toEqual([1]); // maxDeliver 1: terminated, not retried
    expect(await applied()).toBe(before);
  });
});
