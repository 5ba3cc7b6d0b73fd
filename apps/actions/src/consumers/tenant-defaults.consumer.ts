import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_SUBJECTS } from '@ddm/contracts';
import { Consumers } from '@ddm/platform';
import { insertDefaultConfiguration } from '../action-config/action-config-refs';

/** Every new tenant starts with its action statuses, priorities and types (idempotent: derived ids). */
@Injectable()
export class ActionTenantDefaultsConsumer implements OnApplicationBootstrap {
  constructor(private readonly consumers: Consumers) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'actions-tenant-defaults',
      subjects: [EVENT_SUBJECTS.tenantCreated],
      handle: (msg, tx) => insertDefaultConfiguration(tx, msg.payload.tenantId),
    });
  }
}
