import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LiveStreams, Replay } from './live-streams';

/**
 * What other resources ask of the live streams: to serve a person's stream on a request (the
 * notifications' SSE route). The stream reads nothing of the notifications' tables: a reconnect's
 * missed ones come from the caller (`replay`), the new ones from their created events.
 */
@Injectable()
export class StreamRefs {
  constructor(private readonly live: LiveStreams) {}

  /** Takes over the reply as the person's event stream in the tenant (see LiveStreams.open). */
  open(reply: FastifyReply, tenantId: string, userId: string, replay: Replay | null): Promise<void> {
    return this.live.open(reply, tenantId, userId, replay);
  }
}
