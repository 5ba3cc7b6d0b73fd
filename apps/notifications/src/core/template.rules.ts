/**
 * The notification templates every resource of the area speaks of: the product's keys with their
 * category and default texts, the placeholders each needs, and rendering (pure, no I/O). Titles
 * are plain text; messages are HTML (the app shows them as such), so the values put into a message
 * are HTML-escaped.
 */

export const TEMPLATE_KEYS = [
  'DELEGATION_ISSUED',
  'DELEGATION_PENDING_ACCEPTANCE',
  'DELEGATION_ACCEPTED',
  'DELEGATION_REJECTED',
  'DELEGATION_REVOKED',
  'DELEGATION_SUSPENDED',
  'DELEGATION_EXPIRING',
  'DELEGATION_INVALIDATED',
  'ACTION_ASSIGNED',
  'ACTION_OVERDUE',
  'DOCUMENT_REVIEW_REQUESTED',
  'DOCUMENT_APPROVAL_REQUESTED',
  'JOB_COMPLETED',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

export const CATEGORIES = ['DELEGATION', 'ACTION', 'DOCUMENT', 'JOB'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface TemplateText {
  titleTemplate: string;
  messageTemplate: string;
}

export interface TemplateDefinition extends TemplateText {
  templateKey: TemplateKey;
  category: Category;
  /** The notification asks the person to do something (accept, review, work on an action). */
  isActionable: boolean;
}

const d = (templateKey: TemplateKey, category: Category, isActionable: boolean, titleTemplate: string, messageTemplate: string): TemplateDefinition => ({
  templateKey,
  category,
  isActionable,
  titleTemplate,
  messageTemplate,
});

export const DEFAULT_TEMPLATES: Readonly<Record<TemplateKey, TemplateDefinition>> = Object.fromEntries(
  [
    d('DELEGATION_ISSUED', 'DELEGATION', false, 'Delegation {{delegationDisplayId}} issued to you', 'Delegation <strong>{{delegationDisplayId}}</strong> was issued to you.'),
    d('DELEGATION_PENDING_ACCEPTANCE', 'DELEGATION', true, 'Delegation {{delegationDisplayId}} awaits your acceptance', 'Delegation <strong>{{delegationDisplayId}}</strong> was issued to you and awaits your acceptance.'),
    d('DELEGATION_ACCEPTED', 'DELEGATION', false, 'Delegation {{delegationDisplayId}} accepted', 'The recipient accepted delegation <strong>{{delegationDisplayId}}</strong>.'),
    d('DELEGATION_REJECTED', 'DELEGATION', false, 'Delegation {{delegationDisplayId}} rejected', 'Delegation <strong>{{delegationDisplayId}}</strong> was rejected.'),
    d('DELEGATION_REVOKED', 'DELEGATION', false, 'Delegation {{delegationDisplayId}} revoked', 'Delegation <strong>{{delegationDisplayId}}</strong> was revoked.'),
    d('DELEGATION_SUSPENDED', 'DELEGATION', false, 'Delegation {{delegationDisplayId}} suspended', 'Delegation <strong>{{delegationDisplayId}}</strong> was suspended.'),
    d('DELEGATION_EXPIRING', 'DELEGATION', true, 'Delegation {{delegationDisplayId}} expires on {{expirationDate}}', 'Delegation <strong>{{delegationDisplayId}}</strong> expires on {{expirationDate}}.'),
    d('DELEGATION_INVALIDATED', 'DELEGATION', true, 'Delegation {{delegationDisplayId}} is no longer valid', 'A change of the organisation or of a parent delegation made delegation <strong>{{delegationDisplayId}}</strong> invalid.'),
    d('ACTION_ASSIGNED', 'ACTION', true, 'New action {{actionId}}: {{actionName}}', 'You were assigned the action <strong>{{actionName}}</strong> ({{actionId}}).'),
    d('ACTION_OVERDUE', 'ACTION', true, 'Action {{actionId}} is overdue', 'The action <strong>{{actionName}}</strong> ({{actionId}}) passed its due date.'),
    d('DOCUMENT_REVIEW_REQUESTED', 'DOCUMENT', true, 'Review requested: {{documentName}}', 'Your review of document <strong>{{documentName}}</strong> ({{documentDisplayId}}) was requested.'),
    d('DOCUMENT_APPROVAL_REQUESTED', 'DOCUMENT', true, 'Approval requested: {{documentName}}', 'Your approval of document <strong>{{documentName}}</strong> ({{documentDisplayId}}) was requested.'),
    d('JOB_COMPLETED', 'JOB', false, 'Your {{jobKind}} job ended: {{jobStatus}}', 'Your {{jobKind}} job ended ({{jobStatus}}): {{succeeded}} of {{total}} succeeded, {{failed}} failed.'),
  ].map((t) => [t.templateKey, t]),
) as Record<TemplateKey, TemplateDefinition>;

export function isTemplateKey(key: string): key is TemplateKey {
  return Object.prototype.hasOwnProperty.call(DEFAULT_TEMPLATES, key);
}

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

/** The placeholder names a text uses, in order of first use, each once. */
export function placeholdersOf(...texts: string[]): string[] {
  const names: string[] = [];
  for (const text of texts) for (const m of text.matchAll(PLACEHOLDER)) if (!names.includes(m[1])) names.push(m[1]);
  return names;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The names a template needs that `values` lacks ([] when everything is there). */
export function missingPlaceholders(template: TemplateText, values: Readonly<Record<string, string>>): string[] {
  return placeholdersOf(template.titleTemplate, template.messageTemplate).filter((n) => !Object.prototype.hasOwnProperty.call(values, n));
}

/** Title (plain text) and message (HTML: values escaped). Every placeholder must have a value (see missingPlaceholders). */
export function render(template: TemplateText, values: Readonly<Record<string, string>>): { title: string; message: string } {
  const fill = (text: string, escape: boolean) => text.replace(PLACEHOLDER, (_m, name: string) => (escape ? escapeHtml(values[name]) : values[name]));
  return { title: fill(template.titleTemplate, false), message: fill(template.messageTemplate, true) };
}
