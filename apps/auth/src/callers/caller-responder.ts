import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CallerResolveRequest, HEADERS } from '@ddm/contracts';
import { LOGGER, NatsClient, inSpan, requestContext, traceContextOf } from '@ddm/platform';
import { SpanKind } from '@opentelemetry/api';
import { JSONCodec, Subscription } from 'nats';
import { Logger } from 'pino';
import { CallersService } from './callers.service';

const codec = JSONCodec();

/** Answers `auth.caller.resolve` for every service (queue group: replicas share the load). */
@Injectable()
export class CallerResponder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private sub?: Subscription;
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly nats: NatsClient,
    private readonly callers: CallersService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.sub = this.nats.nc.subscribe(this.nats.subjects.callerResolve, {
      queue: 'auth',
      callback: (err, msg) => {
        if (err) return this.log.error({ err }, 'caller.resolve subscription error');
        const requestId = msg.headers?.get(HEADERS.requestId) || undefined;
        // In the trace of the request whose cache missed, so the lookup's statements join it.
        const work = inSpan('process auth.caller.resolve', SpanKind.SERVER, traceContextOf(msg.headers), { 'messaging.system': 'nats' }, () =>
          requestContext.run({ requestId: requestId ?? '' }, async () => {
            try {
              const req = codec.decode(msg.data) as CallerResolveRequest;
              if (typeof req?.sub !== 'string') throw new Error('sub missing');
              msg.respond(codec.encode(await this.callers.resolve(req)));
            } catch (e) {
              this.log.error({ err: e, requestId }, 'caller.resolve failed');
              msg.respond(codec.encode({ found: false, reason: 'Caller could not be resolved', unavailable: true }));
            }
          }),
        );
        this.inflight.add(work);
        void work.finally(() => this.inflight.delete(work));
      },
    });
    await this.nats.nc.flush();
  }

  /** Leaves the queue group (other replicas answer from now on) and finishes the answers under way. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.sub?.drain().catch(() => undefined);
    await Promise.all([...this.inflight]);
  }
}
