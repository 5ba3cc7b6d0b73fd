import { Injectable } from '@nestjs/common';
import { Db, Tx } from '@ddm/platform';
import { PerTenantOnce } from '../core/tenant-once';
import { defaultTemplates } from './action-template.rules';
import { INSERT_DEFAULT_ACTION_TEMPLATES_SQL } from './action-template.sql';
import { ActionTemplateRow, toActionTemplatePayload } from './dto/action-template.response';

/** What other resources (the tenant-created consumer) and the action templates' own service ask of action templates: that the tenant has its default templates. */
@Injectable()
export class ActionTemplateRefs {
  /** Tenants whose default templates this process has made sure of. */
  private readonly defaultsEnsured = new PerTenantOnce();

  constructor(private readonly db: Db) {}

  /** Makes sure the tenant has the default templates (idempotent); a backstop of the tenant-created consumer. */
  async ensureDefaults(tenantId: string): Promise<void> {
    await this.defaultsEnsured.run(tenantId, () => this.db.transaction((tx) => this.insertDefaults(tx, tenantId)));
  }

  /** Inserts the default templates the tenant lacks; publishes `created` only for the rows actually inserted. */
  async insertDefaults(tx: Tx, tenantId: string): Promise<void> {
    const defaults = defaultTemplates(tenantId);
    const rows = await tx.query<ActionTemplateRow>(INSERT_DEFAULT_ACTION_TEMPLATES_SQL, [
      tenantId,
      defaults.map((d) => d.id),
      defaults.map((d) => d.key),
      defaults.map((d) => d.name),
      defaults.map((d) => d.description),
      defaults.map((d) => d.actionTypeId),
    ]);
    await tx.publishMany('evt.settings.action-template.created', rows.map((r) => ({ tenantId, actionTemplate: toActionTemplatePayload(r) })));
  }
}
