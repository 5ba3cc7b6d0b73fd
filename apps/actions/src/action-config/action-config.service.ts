import { Injectable } from '@nestjs/common';
import { Db } from '@ddm/platform';
import { ActionConfigRefs } from './action-config-refs';
import { PRIORITIES_SQL, TYPES_SQL } from './action-config.sql';
import { ActionPriorityView, ActionStatusView, ActionTypeView, PriorityRow, TypeRow, toPriorityView, toTypeView } from './dto/action-config.response';

/**
 * A tenant's action configuration: statuses, priorities and types. Every tenant gets the defaults
 * from evt.auth.tenant.created (consumers/tenant-defaults.consumer.ts) and, as a backstop, before
 * anything reads or writes its actions (ActionConfigRefs.ensureDefaults, once per tenant and process).
 */
@Injectable()
export class ActionConfigService {
  constructor(
    private readonly db: Db,
    private readonly config: ActionConfigRefs,
  ) {}

  statuses(tenantId: string): Promise<ActionStatusView[]> {
    return this.config.statuses(tenantId);
  }

  async priorities(tenantId: string): Promise<ActionPriorityView[]> {
    await this.config.ensureDefaults(tenantId);
    return (await this.db.query<PriorityRow>(PRIORITIES_SQL, [tenantId])).map(toPriorityView);
  }

  async types(tenantId: string): Promise<ActionTypeView[]> {
    await this.config.ensureDefaults(tenantId);
    return (await this.db.query<TypeRow>(TYPES_SQL, [tenantId])).map(toTypeView);
  }
}
