import { Injectable } from '@nestjs/common';
import { EventSubject } from '@ddm/contracts';
import { Tx } from '@ddm/platform';
import { PositionRow, toPositionPayload, toPositionView } from './dto/position.response';
import { POSITIONS_BY_IDS_SQL } from './position.sql';

type PositionSubject = Extract<EventSubject, `evt.settings.position.${string}`>;

/** What other resources (and the positions' own service) ask of positions: their events after a change that touched them. */
@Injectable()
export class PositionRefs {
  /**
   * Queues `subject` for each of the tenant's positions named, in the order named, as they are now
   * in this transaction (the one mapper of a position's payload); `live` leaves deleted ones out.
   * Answers their rows, in the same order.
   */
  async publish(tx: Tx, tenantId: string, subject: PositionSubject, ids: readonly string[], options: { live?: boolean } = {}): Promise<PositionRow[]> {
    if (!ids.length) return [];
    const order = new Map(ids.map((id, i) => [id.toLowerCase(), i]));
    const rows = (await tx.query<PositionRow>(POSITIONS_BY_IDS_SQL, [ids, tenantId]))
      .filter((r) => !options.live || !r.is_deleted)
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    await tx.publishMany(subject, rows.map((r) => ({ tenantId, position: toPositionPayload(toPositionView(r)) })));
    return rows;
  }
}
