import { EventEmitter } from 'node:events';
import pino from 'pino';
import { ScheduledSweep, heartbeat } from './sweep';

class CountingSweep extends ScheduledSweep {
  runs = 0;
  constructor(everyMs: number) {
    super(pino({ level: 'silent' }), everyMs, 'things');
  }
  async sweep(): Promise<number> {
    this.runs++;
    return 0;
  }
}

describe('ScheduledSweep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs every everyMs once the app is up, and not after shutdown', async () => {
    const s = new CountingSweep(1000);
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3000);
    expect(s.runs).toBe(3);
    await s.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(3000);
    expect(s.runs).toBe(3);
  });

  it('never runs on its own when everyMs is 0 (turned off; specs call sweep() by hand)', async () => {
    const s = new CountingSweep(0);
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(s.runs).toBe(0);
    await s.onApplicationShutdown();
  });
});

describe('heartbeat', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('beats every everyMs while the socket is open, and stops by itself when it closes', () => {
    const socket = new EventEmitter();
    const beats: number[] = [];
    heartbeat(socket, 500, () => beats.push(Date.now()));
    jest.advanceTimersByTime(1600);
    expect(beats).toHaveLength(3);
    socket.emit('close');
    jest.advanceTimersByTime(5000);
    expect(beats).toHaveLength(3);
  });

  it('stops when asked, before the socket closes', () => {
    const beats: number[] = [];
    const stop = heartbeat(new EventEmitter(), 500, () => beats.push(1));
    jest.advanceTimersByTime(1000);
    stop();
    jest.advanceTimersByTime(1000);
    expect(beats).toHaveLength(2);
  });
});
