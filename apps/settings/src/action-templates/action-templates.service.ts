import { Injectable } from '@nestjs/common';
import { Page, selectPage } from '@ddm/contracts';
import { Db, listPage } from '@ddm/platform';
import { ActionTemplateRefs } from './action-template-refs';
import { actionTemplateList } from './action-template.sql';
import { ActionTemplateView, toActionTemplateView } from './dto/action-template.response';
import { ListActionTemplatesQuery } from './dto/list-action-templates.query';

/**
 * Action templates of a tenant: every tenant starts with Send Email, Schedule Meeting, Review
 * Document and Prepare Report (from evt.auth.tenant.created, and lazily before a list). The
 * actions area projects them from evt.settings.action-template.*.
 */
@Injectable()
export class ActionTemplatesService {
  constructor(
    private readonly db: Db,
    private readonly defaults: ActionTemplateRefs,
  ) {}

  async list(tenantId: string, q: ListActionTemplatesQuery): Promise<Page<Partial<ActionTemplateView>>> {
    await this.defaults.ensureDefaults(tenantId);
    return selectPage(await listPage(this.db, actionTemplateList(tenantId, q), toActionTemplateView), q.select);
  }
}
