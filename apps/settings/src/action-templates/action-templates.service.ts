import { Injectable } from '@nestjs/common';
import { Page } from '@ddm/contracts';
import { Db, Tx, listPage } from '@ddm/platform';
import { PerTenantOnce } from '../core/tenant-once';
import { defaultTemplates } from './action-template.rules';
import { INSERT_DEFAULT_ACTION_TEMPLATES_SQL, actionTemplateList } from './action-template.sql';
import { ActionTemplateRow, ActionTemplateView, toActionTemplatePayload, toActionTemplateView } from './dto/action-template.response';
import { ListActionTemplatesQuery } from './dto/list-action-templates.query';

/**
 * Action templates of a tenant: every tenant starts with Send Email, Schedule Meeting, Review
 * Document and Prepare Report (from evt.auth.tenant.created, and lazily before a list). The
 * actions area projects them from evt.settings.action-template.*.
 */
@Injectable()
export class ActionTemplatesService {
  private readonly defaultsEnsured = new PerTenantOnce();

  constructor(private readonly db: Db) {}

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

  async list(tenantId: string, q: ListActionTemplatesQuery): Promise<Page<ActionTemplateView>> {
    await this.ensureDefaults(tenantId);
    return listPage(this.db, actionTemplateList(tenantId, q), toActionTemplateView);
  }
}
