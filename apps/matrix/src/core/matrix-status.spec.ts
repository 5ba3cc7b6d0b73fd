import { statusById, statusByName } from './matrix-status.rules';

describe('matrix statuses', () => {
  it('statuses: Active by default, by id otherwise, unknown ids refused', () => {
    expect(statusById(undefined)?.statusName).toBe('Active');
    expect(statusById('0199a000-0000-7000-8000-000000000002')?.statusName).toBe('Draft');
    expect(statusById('0199A000-0000-7000-8000-000000000003')?.statusName).toBe('Archived');
    expect(statusById('0199a000-0000-7000-8000-000000000009')).toBeUndefined();
  });

  it('by name: the status named, Active for a name no status has', () => {
    expect(statusByName('Archived').id).toBe('0199a000-0000-7000-8000-000000000003');
    expect(statusByName('Deleted').statusName).toBe('Active');
  });
});
