/** Pure rules of a tenant's template overrides: the template it sees, and the placeholders an override may use. */
import { DEFAULT_TEMPLATES, TemplateDefinition, TemplateKey, TemplateText, placeholdersOf } from '../core/template.rules';

/** A template as a tenant sees it: the default, with the tenant's texts where it overrode them. */
export function effectiveTemplate(key: TemplateKey, override: TemplateText | null | undefined): TemplateDefinition & { isCustom: boolean } {
  const base = DEFAULT_TEMPLATES[key];
  return override ? { ...base, titleTemplate: override.titleTemplate, messageTemplate: override.messageTemplate, isCustom: true } : { ...base, isCustom: false };
}

/**
 * The placeholders an override may use: those of the default texts (what the events fill in).
 * Answers the unknown names it uses ([] when it is fine).
 */
export function unknownPlaceholders(key: TemplateKey, text: TemplateText): string[] {
  const allowed = placeholdersOf(DEFAULT_TEMPLATES[key].titleTemplate, DEFAULT_TEMPLATES[key].messageTemplate);
  return placeholdersOf(text.titleTemplate, text.messageTemplate).filter((n) => !allowed.includes(n));
}
