import { ApiClient, TestSystem, apiClient, runSeed, startTestSystem, tokenFor, until } from '@ddm/testing';

/**
 * The decision area with the areas it builds on, as separate processes behind the gateway: the
 * seeded decisions, names that follow the settings area's events, and a bulk job end to end.
 */
describe('system: decisions behind the gateway, with settings and auth, on events', () => {
  let system: TestSystem;
  /** Demo Co's System Admin, every answer checked against docs/openapi.json. */
  let api: ApiClient;

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision'] });
    api = apiClient(system.gateway.url, tokenFor('admin@demo.test'));
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  it("lists the spec's four decision operations in the merged OpenAPI document: status 200, bearer accessToken", async () => {
    const doc = (await system.http.get('/docs-json')).body;
    const operations: [string, string][] = [
      ['delete', '/decision/v1/decisions/{id}'],
      ['patch', '/decision/v1/decisions/bulk-delete'],
      ['patch', '/decision/v1/decisions/bulk-restore'],
      ['patch', '/decision/v1/decisions/bulk-duplicate'],
    ];
    for (const [method, path] of operations) {
      const op = doc.paths[path]?.[method];
      expect({ path, method, ok: Boolean(op?.responses?.['200']), security: op?.security }).toEqual({ path, method, ok: true, security: [{ accessToken: [] }] });
    }
  });

  it('serves the seeded decisions: at least 25 across every section, drafts and one archived, with groups and authorities', async () => {
    const all = await api.GET('/decision/v1/decisions', { params: { query: { limit: 100 } } });
    expect(all.response.status).toBe(200);
    const decisions = all.data!.data.data;
    expect(all.data!.data.total).toBeGreaterThanOrEqual(25);
    const sections = await api.GET('/settings/v1/decision-sections', { params: { query: { limit: 100 } } });
    const sectionNames = sections.data!.data.data.map((s) => s.sectionName).sort();
    expect(sectionNames.length).toBeGreaterThanOrEqual(5);
    expect([...new Set(decisions.map((d) => d.sectionName))].sort()).toEqual(sectionNames);
    expect(decisions.filter((d) => d.status === 'DRAFT').length).toBeGreaterThanOrEqual(3);
    expect(decisions.filter((d) => d.status === 'ARCHIVED')).toHaveLength(1);
    expect(decisions.every((d) => (d.decisionGroups ?? []).length > 0 && (d.decisionAuthorities ?? []).length > 0)).toBe(true);
    // The examples, with their limits (one of each value type).
    const limitOf = (name: string) => {
      const d = decisions.find((x) => x.name === name);
      expect(d).toBeDefined();
      const a = d!.decisionAuthorities!.find((x) => x.authorityType === 'Approval');
      return a && { type: a.authorityLimitValueType, operator: a.authorityLimitOperator, value: a.authorityLimitValue, unit: a.authorityLimitValueUnit };
    };
    expect(limitOf('Approve purchase orders')).toEqual({ type: 'Currency', operator: '<=', value: '500000', unit: 'USD' });
    expect(limitOf('Approve travel')).toEqual({ type: 'Currency', operator: '<=', value: '10000', unit: 'USD' });
    expect(limitOf('Approve price discounts')).toEqual({ type: 'Percentage', operator: '<=', value: '30', unit: null });
    expect(limitOf('Hire headcount')).toEqual({ type: 'Number', operator: '<=', value: '5', unit: null });
    expect(limitOf('Extend payment terms')).toEqual({ type: 'Time', operator: '<=', value: '90', unit: 'Days' });
    expect(limitOf('Approve capital expenditure')?.type).toBe('Currency');
    expect(decisions.find((d) => d.name === 'Sign customer contracts')!.decisionAuthorities!.map((a) => a.authorityType)).toContain('Signatory');

    // The seed runs again without making anything twice.
    runSeed(system.env);
    expect((await api.GET('/decision/v1/decisions', { params: { query: { limit: 1 } } })).data!.data.total).toBe(all.data!.data.total);
  });

  it("a group renamed in settings shows its new name on the decisions' decisionGroups (by event)", async () => {
    const [group] = (await api.GET('/settings/v1/groups', { params: { query: { search: 'Treasury and Finance' } } })).data!.data.data;
    expect(group).toBeUndefined();
    const [finance] = (await api.GET('/settings/v1/groups', { params: { query: { search: 'Finance', limit: 100 } } })).data!.data.data.filter((g) => g.groupName === 'Finance');
    const withFinance = await api.GET('/decision/v1/decisions', { params: { query: { groupIds: [finance.id], limit: 100 } } });
    expect(withFinance.data!.data.total).toBeGreaterThan(0);
    const decisionId = withFinance.data!.data.data[0].id;

    const renamed = await api.PATCH('/settings/v1/groups/{id}', { params: { path: { id: finance.id } }, body: { groupName: 'Treasury and Finance' } });
    expect(renamed.response.status).toBe(200);
    const groupNames = async () => ((await api.GET('/decision/v1/decisions/{id}', { params: { path: { id: decisionId } } })).data!.data.decisionGroups ?? []).map((g) => g.groupName);
    await until(async () => (await groupNames()).includes('Treasury and Finance'), 'the rename to reach the decision area', 15_000);
    expect(await groupNames()).not.toContain('Finance');
  });

  it('duplicates decisions in bulk through the gateway and follows the job to its end', async () => {
    const drafts = (await api.GET('/decision/v1/decisions', { params: { query: { status: ['DRAFT'], limit: 100 } } })).data!.data.data;
    const accepted = await api.PATCH('/decision/v1/decisions/bulk-duplicate', { body: { decisionIds: drafts.map((d) => d.id) } });
    expect(accepted.response.status).toBe(200);
    const { jobId, total } = accepted.data!.data;
    expect(total).toBe(drafts.length);
    const job = await until(async () => {
      const res = await api.GET('/decision/v1/jobs/{jobId}', { params: { path: { jobId } } });
      return res.data!.data.status === 'COMPLETED' && res.data!.data;
    }, 'the bulk duplicate to complete', 30_000);
    expect(job).toMatchObject({ total: drafts.length, succeeded: drafts.length, failed: 0 });
    const copies = await api.GET('/decision/v1/decisions', { params: { query: { search: 'Copy of', limit: 100 } } });
    expect(copies.data!.data.data.map((d) => d.copiedFrom).sort()).toEqual(drafts.map((d) => d.id).sort());
  });
});
