import { DEFAULT_TEMPLATES, TEMPLATE_KEYS, missingPlaceholders, placeholdersOf, render } from './template.rules';

describe('notification templates', () => {
  it('every key of the product has a category and default texts', () => {
    expect(TEMPLATE_KEYS.length).toBe(13);
    for (const key of TEMPLATE_KEYS) expect(DEFAULT_TEMPLATES[key]).toMatchObject({ templateKey: key, category: expect.any(String), titleTemplate: expect.any(String) });
    expect(DEFAULT_TEMPLATES.ACTION_ASSIGNED.category).toBe('ACTION');
    expect(DEFAULT_TEMPLATES.JOB_COMPLETED.category).toBe('JOB');
  });

  it('placeholders are the {{names}} the texts use, each once', () => {
    expect(placeholdersOf('{{a}} and {{ b }}', '{{a}} {{c}} {{1x}}')).toEqual(['a', 'b', 'c']);
    expect(placeholdersOf(DEFAULT_TEMPLATES.JOB_COMPLETED.titleTemplate, DEFAULT_TEMPLATES.JOB_COMPLETED.messageTemplate)).toEqual(['jobKind', 'jobStatus', 'succeeded', 'total', 'failed']);
  });

  it('renders the title as text and the message as HTML with the values escaped', () => {
    const t = { titleTemplate: 'Hi {{name}}', messageTemplate: '<p>{{name}} & {{name}}</p>' };
    expect(render(t, { name: '<script>"x"</script>' })).toEqual({
      title: 'Hi <script>"x"</script>',
      message: '<p>&lt;script&gt;&quot;x&quot;&lt;/script&gt; & &lt;script&gt;&quot;x&quot;&lt;/script&gt;</p>', // the template's own & is its HTML
    });
    expect(missingPlaceholders(t, {})).toEqual(['name']);
    expect(missingPlaceholders(t, { name: '' })).toEqual([]);
  });
});
