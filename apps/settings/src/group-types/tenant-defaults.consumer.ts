import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_SUBJECTS } from '@ddm/contracts';
import { Consumers } from '@ddm/platform';
import { GroupTypesService } from './group-types.service';

/**
 * Every new tenant starts with Organizations, Locations and Departments: a durable consumer of
 * evt.auth.tenant.created inserts them (idempotently) in the transaction that records the message.
 */
@Injectable()
export class TenantDefaultsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    private readonly groupTypes: GroupTypesService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'settings-tenant-defaults',
      subjects: [EVENT_SUBJECTS.tenantCreated],
      handle: (msg, tx) => this.groupTypes.insertDefaults(tx, msg.payload.tenantId),
    });
  }
}
