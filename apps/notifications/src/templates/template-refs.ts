import { Injectable } from '@nestjs/common';
import { Queryable } from '@ddm/platform';
import { TemplateDefinition, TemplateKey } from '../core/template.rules';
import { overrideText } from './dto/template.dto';
import { OverrideRow, overridesSql } from './template.sql';
import { effectiveTemplate } from './template.rules';

/** What other resources (and the templates' own service) ask of templates: the template a tenant sends a notification with. */
@Injectable()
export class TemplateRefs {
  /** The template of `key` in the tenant: the default, with the tenant's texts where it changed them (one statement, in the caller's transaction or not). */
  async get(q: Queryable, tenantId: string, key: TemplateKey): Promise<TemplateDefinition> {
    const [o] = await q.query<OverrideRow>(overridesSql(tenantId, key));
    return effectiveTemplate(key, overrideText(o));
  }
}
