import { connect } from 'nats';
import { Subjects } from '@ddm/contracts';
import { NATS_URL, randomName } from './env';

export interface TestNamespace {
  namespace: string;
  subjects: Subjects;
  /** Deletes the namespace's streams (and so its consumers). */
  cleanup(): Promise<void>;
}

/** A NATS namespace of one test file: its own streams, consumers and subjects. */
export function createTestNamespace(): TestNamespace {
  const namespace = randomName('t');
  const subjects = new Subjects(namespace);
  return {
    namespace,
    subjects,
    cleanup: async () => {
      const nc = await connect({ servers: NATS_URL });
      try {
        const jsm = await nc.jetstreamManager();
        for (const s of [subjects.eventsStream, subjects.jobsStream]) await jsm.streams.delete(s).catch(() => undefined);
      } finally {
        await nc.close();
      }
    },
  };
}
