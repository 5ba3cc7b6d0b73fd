import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_SUBJECTS } from '@ddm/contracts';
import { Consumers } from '@ddm/platform';
import { ActionTemplateRefs } from '../action-templates/action-template-refs';

/** Every new tenant starts with its default action templates (idempotent: one row per tenant and key). */
@Injectable()
export class ActionTemplateDefaultsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    private readonly templates: ActionTemplateRefs,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'settings-action-template-defaults',
      subjects: [EVENT_SUBJECTS.tenantCreated],
      handle: (msg, tx) => this.templates.insertDefaults(tx, msg.payload.tenantId),
    });
  }
}
