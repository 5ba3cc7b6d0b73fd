import pino from 'pino';
import { restartDelayMs, superviseLoop } from './consumer';
import { metricsRegistry } from './observability';

const silent = pino({ level: 'silent' });

describe('superviseLoop: a consumer loop that ends for any reason is started again', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('restarts a loop whose iterator ended and one that threw, counting each restart, until stopped', async () => {
    let stopped = false;
    const stop = new AbortController();
    const restarts: string[] = [];
    let endThird!: () => void;
    const ends = [() => Promise.resolve(), () => Promise.reject(new Error('consumer deleted')), () => new Promise<void>((r) => (endThird = r))];
    let runs = 0;
    let reopened = 0;
    const supervised = superviseLoop({
      name: 'test-consumer',
      loop: () => ends[runs++](),
      reopen: async () => void reopened++,
      stopped: () => stopped,
      signal: stop.signal,
      log: silent,
      onRestart: (name) => restarts.push(name),
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(restarts).toEqual(['test-consumer']); // the iterator ended
    await jest.advanceTimersByTimeAsync(restartDelayMs(0));
    expect(reopened).toBe(1);
    expect(restarts).toEqual(['test-consumer', 'test-consumer']); // the second run threw
    await jest.advanceTimersByTimeAsync(restartDelayMs(1));
    expect(reopened).toBe(2);
    expect(runs).toBe(3); // the third run goes on
    // Stopping: the consumer's messages are closed, which ends the loop; that end is not a restart.
    stopped = true;
    stop.abort();
    endThird();
    await supervised;
    expect(restarts).toHaveLength(2);
    expect(reopened).toBe(2);
  });

  it('keeps trying to reopen (NATS still down) with a growing back-off, and gives up waiting at once when stopped', async () => {
    let stopped = false;
    const stop = new AbortController();
    let attempts = 0;
    const supervised = superviseLoop({
      name: 'c',
      loop: () => Promise.resolve(),
      reopen: async () => {
        attempts++;
        throw new Error('NATS is down');
      },
      stopped: () => stopped,
      signal: stop.signal,
      log: silent,
      onRestart: () => undefined,
    });
    await jest.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(attempts).toBe(3);
    await jest.advanceTimersByTimeAsync(7_999);
    expect(attempts).toBe(3);
    await jest.advanceTimersByTimeAsync(1);
    expect(attempts).toBe(4);
    stopped = true;
    stop.abort();
    await supervised; // the back-off wait ends at once
    expect(attempts).toBe(4);
  });

  it('waits 1 s doubling up to 30 s between restarts', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(restartDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('counts restarts in ddm_consumer_restarts_total{consumer} by default', async () => {
    let runs = 0;
    let stopped = false;
    const stop = new AbortController();
    const supervised = superviseLoop({
      name: 'metric-consumer',
      loop: () => (runs++ ? new Promise<void>(() => undefined) : Promise.resolve()),
      reopen: async () => undefined,
      stopped: () => stopped,
      signal: stop.signal,
      log: silent,
    });
    await jest.advanceTimersByTimeAsync(1_000);
    stopped = true;
    stop.abort();
    void supervised;
    const text = await metricsRegistry().getSingleMetricAsString('ddm_consumer_restarts_total');
    expect(text).toContain('ddm_consumer_restarts_total{consumer="metric-consumer"} 1');
  });
});
