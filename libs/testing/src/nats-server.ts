import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes';

/** A NATS server of one spec, which it may stop and start again (the shared one serves every file at once). */
export interface PrivateNats {
  url: string;
  /** Kills the server (SIGKILL: no goodbye to clients); its JetStream store stays. */
  kill(): Promise<void>;
  /** Starts it again (after `kill`) on the same port and store. */
  start(): Promise<void>;
  /** Stops the server and removes its store. */
  stop(): Promise<void>;
}

/**
 * Starts `nats-server -js` on a free port with its JetStream store in a temporary folder. The
 * binary is the one jest's global setup found (DDM_NATS_SERVER_BIN; it fails the run naming
 * nats-server when a spec named *nats-restart* or *nats-outage* is in the run and there is none).
 */
export async function startPrivateNats(): Promise<PrivateNats> {
  const bin = process.env.DDM_NATS_SERVER_BIN;
  if (!bin) throw new Error('DDM_NATS_SERVER_BIN is not set: run the spec through jest with nats-server on PATH (its file name must contain "nats-restart" or "nats-outage")');
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'ddm-nats-'));
  let child: ChildProcess;
  const start = async () => {
    child = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while (!(await answers(port))) {
      if (child.exitCode !== null) throw new Error(`nats-server exited (${child.exitCode}) during start-up`);
      if (Date.now() > deadline) throw new Error(`nats-server did not answer on 127.0.0.1:${port} within 20 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    kill: () => kill('SIGKILL'),
    start,
    stop: async () => {
      await kill('SIGTERM');
      rmSync(store, { recursive: true, force: true });
    },
  };
}

/** True when a NATS server greets on the port. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('data', (d) => done(String(d).startsWith('INFO ')));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}
