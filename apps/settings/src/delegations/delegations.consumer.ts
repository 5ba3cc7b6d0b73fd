import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DelegationEvent } from '@ddm/contracts';
import { Consumers } from '@ddm/platform';
import { DelegationsService } from './delegations.service';

/**
 * The durable consumer of the decision area's delegation events (evt.decision.delegation.issued,
 * .updated, .revoked: one wildcard subject, as NATS 2.9 takes a single filter). Each message is
 * applied once, in the transaction that records it as processed.
 */
@Injectable()
export class DelegationConsumers implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    private readonly delegations: DelegationsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start<DelegationEvent>({
      name: 'settings-decision-delegations',
      stream: 'EVENTS',
      subjects: ['evt.decision.delegation.*'],
      handle: (msg, m) => this.delegations.apply(m, msg.subject, msg.payload),
    });
  }
}
