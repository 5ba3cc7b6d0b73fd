import { effectiveTemplate, unknownPlaceholders } from './template.rules';

describe('notification template overrides', () => {
  it('a tenant override may use only the placeholders of the default texts', () => {
    expect(unknownPlaceholders('DELEGATION_ISSUED', { titleTemplate: '{{delegationDisplayId}}', messageTemplate: 'plain' })).toEqual([]);
    expect(unknownPlaceholders('DELEGATION_ISSUED', { titleTemplate: '{{token}}', messageTemplate: '{{delegationDisplayId}}' })).toEqual(['token']);
    expect(effectiveTemplate('DELEGATION_ISSUED', { titleTemplate: 'A', messageTemplate: 'B' })).toMatchObject({ titleTemplate: 'A', messageTemplate: 'B', category: 'DELEGATION', isCustom: true });
    expect(effectiveTemplate('DELEGATION_ISSUED', null).isCustom).toBe(false);
  });
});
