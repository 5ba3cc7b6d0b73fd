import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DelegationEvent, GroupEvent, PositionEvent } from '@ddm/contracts';
import { Consumers } from '@ddm/platform';
import { ProjectionsService } from './projections.service';

/**
 * Durable consumers of the events auth projects: the settings area's positions and groups (names
 * on userPositions/userGroups) and the decision area's delegations (delegationsIssued/Received).
 * One subject filter each (NATS 2.9 takes a single filter_subject).
 */
@Injectable()
export class ProjectionConsumers implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    private readonly projections: ProjectionsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start<PositionEvent>({
      name: 'auth-settings-positions',
      stream: 'EVENTS',
      subjects: ['evt.settings.position.*'],
      handle: (msg, m) => this.projections.applyPosition(m, msg.subject, msg.payload),
    });
    await this.consumers.start<GroupEvent>({
      name: 'auth-settings-groups',
      stream: 'EVENTS',
      subjects: ['evt.settings.group.*'],
      handle: (msg, m) => this.projections.applyGroup(m, msg.subject, msg.payload),
    });
    await this.consumers.start<DelegationEvent>({
      name: 'auth-decision-delegations',
      stream: 'EVENTS',
      subjects: ['evt.decision.delegation.*'],
      handle: (msg, m) => this.projections.applyDelegation(m, msg.subject, msg.payload),
    });
  }
}
