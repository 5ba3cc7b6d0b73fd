/**
 * The open streams of each person across replicas, as their announcements tell them: which are
 * over the limit (the oldest first). Pure: time comes in as an argument.
 */
export class StreamRegistry {
  private readonly byUser = new Map<string, Map<string, { openedAt: number; seenAt: number }>>();

  constructor(
    private readonly max: number,
    /** An entry not announced again within this long is dropped (its replica went away). */
    private readonly ttlMs: number,
  ) {}

  /** Records (or refreshes) a stream; answers the ids of the person's streams over the limit, oldest first. */
  seen(userId: string, streamId: string, openedAt: number, now: number): string[] {
    const streams = this.byUser.get(userId) ?? new Map<string, { openedAt: number; seenAt: number }>();
    this.byUser.set(userId, streams);
    streams.set(streamId, { openedAt, seenAt: now });
    for (const [id, s] of streams) if (now - s.seenAt > this.ttlMs) streams.delete(id);
    if (streams.size <= this.max) return [];
    const byAge = [...streams.entries()].sort(([a, x], [b, y]) => x.openedAt - y.openedAt || (a < b ? -1 : 1));
    const over = byAge.slice(0, streams.size - this.max).map(([id]) => id);
    for (const id of over) streams.delete(id);
    return over;
  }

  remove(userId: string, streamId: string): void {
    const streams = this.byUser.get(userId);
    if (!streams) return;
    streams.delete(streamId);
    if (!streams.size) this.byUser.delete(userId);
  }

  count(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }
}
