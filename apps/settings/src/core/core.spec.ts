import { eventKindOf, namesAChange, nothingToChange } from './change.rules';
import { PerTenantOnce } from './tenant-once';

describe('the PATCH rules every soft-deletable record shares', () => {
  const FIELDS = ['name', 'sectionId', 'isDeleted'] as const;
  type Change = { name?: string; sectionId?: string | null; isDeleted?: boolean };
  const names = (c: Change) => namesAChange(c, FIELDS);

  it('a change names at least one field; null is a change (it clears); isDeleted counts only when true', () => {
    expect(names({})).toBe(false);
    expect(names({ isDeleted: false })).toBe(false);
    expect(names({ isDeleted: true })).toBe(true);
    expect(names({ name: 'x' })).toBe(true);
    expect(names({ sectionId: null })).toBe(true);
    expect(names({ isDeleted: false, sectionId: null })).toBe(true);
  });

  it('deleting publishes "deleted" whatever else changes with it; anything else "updated"', () => {
    expect(eventKindOf({ isDeleted: true })).toBe('deleted');
    expect(eventKindOf({ isDeleted: false })).toBe('updated');
    expect(eventKindOf({})).toBe('updated');
  });

  it('the 400 message names the fields a PATCH may change', () => {
    expect(nothingToChange(FIELDS)).toBe('Nothing to change: send at least one of name, sectionId, isDeleted');
  });
});

describe('PerTenantOnce', () => {
  it("runs a tenant's set-up until it succeeds once, then never again; other tenants apart", async () => {
    const once = new PerTenantOnce();
    const runs: string[] = [];
    await expect(once.run('t1', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    for (const t of ['t1', 't1', 't2', 't1']) await once.run(t, async () => void runs.push(t));
    expect(runs).toEqual(['t1', 't2']);
  });
});
