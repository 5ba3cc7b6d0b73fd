/** One request of a steady load and how it was answered. */
export interface LoadOutcome {
  kind: 'read' | 'write';
  method: string;
  path: string;
  /** Its x-request-id (`load-<n>`), to find it in the services' logs. */
  requestId: string;
  /** When it was sent (ms since the epoch). */
  at: number;
  /** HTTP status; 0 when no answer came (connection error or the 15 s timeout). */
  status: number;
  retryAfter: string | null;
  /** `data.id` of a write's answer. */
  id?: string;
  ms: number;
  /** The error body's message of an answer that is not 2xx, or why no answer came. */
  error?: string;
}

/** A request of the load: `n` counts the requests sent so far. */
export interface LoadRequest {
  kind: 'read' | 'write';
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface RunningLoad {
  outcomes: LoadOutcome[];
  /** Sends no more requests, waits for those in flight, answers every outcome in the order sent. */
  stop(): Promise<LoadOutcome[]>;
}

/**
 * Sends `ratePerSecond` requests a second to `baseUrl` (each made by `next(n)`) as `token`,
 * without waiting for earlier answers, until stopped; records each answer.
 */
export function startLoad(baseUrl: string, token: string, ratePerSecond: number, next: (n: number) => LoadRequest): RunningLoad {
  const outcomes: LoadOutcome[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const send = async (req: LoadRequest, requestId: string) => {
    const at = Date.now();
    const base = { kind: req.kind, method: req.method, path: req.path, requestId, at };
    try {
      const res = await fetch(baseUrl + req.path, {
        method: req.method,
        headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      let id: string | undefined;
      let error: string | undefined;
      try {
        const body = JSON.parse(text) as { data?: { id?: string }; message?: string };
        id = body.data?.id;
        if (!res.ok) error = body.message;
      } catch {
        if (!res.ok) error = text.slice(0, 200);
      }
      outcomes.push({ ...base, status: res.status, retryAfter: res.headers.get('retry-after'), id, ms: Date.now() - at, ...(error === undefined ? {} : { error }) });
    } catch (err) {
      outcomes.push({ ...base, status: 0, retryAfter: null, ms: Date.now() - at, error: (err as Error).message });
    }
  };
  // Timers drift on a busy machine: each tick sends what the elapsed time calls for, so the rate holds.
  const began = Date.now();
  const timer = setInterval(() => {
    while (n < ((Date.now() - began) * ratePerSecond) / 1000) {
      const p = send(next(n), `load-${n}`).finally(() => inFlight.delete(p));
      n++;
      inFlight.add(p);
    }
  }, 1000 / ratePerSecond);
  return {
    outcomes,
    stop: async () => {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      return [...outcomes].sort((a, b) => a.at - b.at);
    },
  };
}

/** Counts by kind and status, e.g. `{ 'read 200': 512, 'write 503': 96 }`; `withReasons` adds the error message of failures. */
export function loadCounts(outcomes: readonly LoadOutcome[], withReasons = false): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const key = `${o.kind} ${o.status}${withReasons && o.error ? ` (${o.error})` : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
