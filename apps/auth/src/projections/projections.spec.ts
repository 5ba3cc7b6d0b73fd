import { SETTINGS_EVENT_SUBJECTS, validateEvent } from '@ddm/contracts';
import { group, position } from '../../test/fixtures/events';

const TENANT = '0190a000-0000-7000-8000-0000000000aa';

/** The object without one of its fields. */
function without<T extends object>(value: T, field: keyof T): Partial<T> {
  const copy: Partial<T> = { ...value };
  delete copy[field];
  return copy;
}

describe('settings events auth projects (checked when consumed: a bad one is terminated, not applied)', () => {
  it.each([SETTINGS_EVENT_SUBJECTS.positionCreated, SETTINGS_EVENT_SUBJECTS.positionUpdated, SETTINGS_EVENT_SUBJECTS.positionDeleted])('accepts a complete position event on %s', async (subject) => {
    expect(validateEvent(subject, { tenantId: TENANT, position: position({ positionName: 'Analyst' }) })).toEqual([]);
  });

  it('refuses a position event without the position, its id or its name', async () => {
    const analyst = position({ positionName: 'Analyst' });
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.positionCreated, { tenantId: TENANT })).toEqual(['position must be an object']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.positionUpdated, { tenantId: TENANT, position: without(analyst, 'id') })).toEqual(['position.id must be a UUID']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.positionUpdated, { tenantId: TENANT, position: without(analyst, 'positionName') })).toEqual(['position.positionName must be a string']);
  });

  it.each([SETTINGS_EVENT_SUBJECTS.groupCreated, SETTINGS_EVENT_SUBJECTS.groupUpdated, SETTINGS_EVENT_SUBJECTS.groupDeleted])('accepts a complete group event on %s', async (subject) => {
    expect(validateEvent(subject, { tenantId: TENANT, group: group({ groupName: 'Finance' }) })).toEqual([]);
  });

  it('refuses a group event without the group id or name, or without a tenant', async () => {
    const finance = group({ groupName: 'Finance' });
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupCreated, { tenantId: TENANT, group: without(finance, 'id') })).toEqual(['group.id must be a UUID']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupCreated, { tenantId: TENANT, group: without(finance, 'groupName') })).toEqual(['group.groupName must be a string']);
    expect(validateEvent(SETTINGS_EVENT_SUBJECTS.groupDeleted, { group: finance })).toEqual(['tenantId must be a UUID']);
  });
});
