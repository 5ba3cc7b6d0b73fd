import { Injectable } from '@nestjs/common';
import { badRequest } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { TEMPLATE_KEYS, isTemplateKey } from '../core/template.rules';
import { TemplateView, UpdateTemplateDto, overrideText, toTemplateView } from './dto/template.dto';
import { TemplateRefs } from './template-refs';
import { OverrideRow, overridesSql, upsertOverrideSql } from './template.sql';
import { effectiveTemplate, unknownPlaceholders } from './template.rules';

/** The templates every tenant has (defaults in code), with the tenant's own texts where it changed them. */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly db: Db,
    private readonly refs: TemplateRefs,
  ) {}

  async list(tenantId: string): Promise<TemplateView[]> {
    const overrides = new Map((await this.db.query<OverrideRow>(overridesSql(tenantId))).map((o) => [o.template_key, o]));
    return TEMPLATE_KEYS.map((key) => toTemplateView(effectiveTemplate(key, overrideText(overrides.get(key)))));
  }

  async update(tenantId: string, key: string, dto: UpdateTemplateDto, by: string): Promise<TemplateView> {
    if (!isTemplateKey(key)) throw badRequest(`Unknown notification template "${key}"`, [{ field: 'key', message: `key must be one of ${TEMPLATE_KEYS.join(', ')}` }]);
    if (dto.titleTemplate === undefined && dto.messageTemplate === undefined) {
      throw badRequest('Nothing to change: send titleTemplate, messageTemplate or both', [{ field: 'titleTemplate', message: 'titleTemplate or messageTemplate is required' }]);
    }
    return this.db.transaction(async (tx) => {
      const current = await this.refs.get(tx, tenantId, key);
      const text = { titleTemplate: dto.titleTemplate ?? current.titleTemplate, messageTemplate: dto.messageTemplate ?? current.messageTemplate };
      const unknown = unknownPlaceholders(key, text);
      if (unknown.length) {
        throw badRequest(
          `The template ${key} has no placeholder ${unknown.map((u) => `"${u}"`).join(', ')}`,
          unknown.map((u) => ({ field: dto.titleTemplate?.includes(u) ? 'titleTemplate' : 'messageTemplate', message: `unknown placeholder "${u}"` })),
        );
      }
      const [row] = await tx.query<OverrideRow>(upsertOverrideSql(tenantId, key, text.titleTemplate, text.messageTemplate, by));
      return toTemplateView(effectiveTemplate(key, overrideText(row)));
    });
  }
}
