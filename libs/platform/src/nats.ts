import { Subjects } from '@ddm/contracts';
import {
  DiscardPolicy,
  Events,
  JetStreamClient,
  JetStreamManager,
  NatsConnection,
  RetentionPolicy,
  StorageType,
  connect,
  nanos,
} from 'nats';

/** One NATS connection per process, with JetStream handles and the namespaced names. */
export class NatsClient {
  /** False from a disconnection until the reconnection (the client reconnects by itself, forever). */
  connected = true;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    readonly subjects: Subjects,
  ) {}

  static async connect(url: string, namespace: string, name: string): Promise<NatsClient> {
    const nc = await connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 1_000, timeout: 5_000 });
    const jsm = await nc.jetstreamManager();
    const client = new NatsClient(nc, nc.jetstream(), jsm, new Subjects(namespace));
    void client.watchConnection();
    await client.ensureStreams();
    return client;
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === Events.Disconnect) this.connected = false;
      else if (status.type === Events.Reconnect) this.connected = true;
    }
  }

  /** Streams EVENTS (limits retention, 7 days) and JOBS (work queue); created or updated to this shape. */
  async ensureStreams(): Promise<void> {
    const s = this.subjects;
    await this.ensureStream(s.eventsStream, s.eventsSubjects, RetentionPolicy.Limits);
    await this.ensureStream(s.jobsStream, s.jobsSubjects, RetentionPolicy.Workqueue);
  }

  private async ensureStream(name: string, subjects: string[], retention: RetentionPolicy): Promise<void> {
    const config = {
      name,
      subjects,
      retention,
      storage: StorageType.File,
      max_age: nanos(7 * 24 * 3600 * 1000),
      duplicate_window: nanos(2 * 60 * 1000),
      discard: DiscardPolicy.Old,
    };
    try {
      const info = await this.jsm.streams.info(name);
      const same = info.config.subjects?.length === subjects.length && subjects.every((x) => info.config.subjects?.includes(x));
      if (!same) await this.jsm.streams.update(name, { ...info.config, subjects });
    } catch (err) {
      if (!/stream not found/i.test((err as Error).message)) throw err;
      try {
        await this.jsm.streams.add(config);
      } catch (e) {
        // Another replica created it between our look and our add.
        if (!/already in use|already exists/i.test((e as Error).message)) throw e;
      }
    }
  }

  async ping(timeoutMs = 2_000): Promise<void> {
    if (this.nc.isClosed()) throw new Error('NATS connection closed');
    if (!this.connected) throw new Error('NATS is disconnected (reconnecting)');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([this.nc.flush(), new Promise((_, rej) => (timer = setTimeout(() => rej(new Error('NATS flush timed out')), timeoutMs)))]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}
