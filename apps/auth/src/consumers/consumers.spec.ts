import { SETTINGS_EVENT_SUBJECTS, validateEvent } from '@ddm/contracts';
import { group, position } from '../../test/fixtures/events';
import { GROUPS } from './settings.projection';

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

describe("auth's group projection row (auth.group_projection)", () => {
  const finance = group({ groupName: 'Finance', groupId: 'GFIN01', displayName: 'Fin', externalId: 'x-1', instanceId: 'i-1', legalName: 'Finance Ltd', baseCurrency: 'EUR' });

  it('maps every column from the group event; legalName and baseCurrency absent are null', () => {
    expect(GROUPS.row({ subject: SETTINGS_EVENT_SUBJECTS.groupUpdated, payload: { tenantId: TENANT, group: finance } })).toEqual({
      id: finance.id,
      tenantId: TENANT,
      values: {
        group_code: 'GFIN01',
        group_name: 'Finance',
        display_name: 'Fin',
        tenant_group_type_id: finance.tenantGroupTypeId,
        tenant_group_type_name: finance.tenantGroupTypeName,
        legal_name: 'Finance Ltd',
        base_currency: 'EUR',
        status: 'ACTIVE',
        is_deleted: false,
        external_id: 'x-1',
        instance_id: 'i-1',
      },
    });
    const bare = without(without(finance, 'legalName') as typeof finance, 'baseCurrency') as typeof finance;
    expect(GROUPS.row({ subject: SETTINGS_EVENT_SUBJECTS.groupCreated, payload: { tenantId: TENANT, group: bare } }).values).toMatchObject({ legal_name: null, base_currency: null });
  });

  it('a group is deleted by its deleted event, or when its event says so', () => {
    const deletedEvent = GROUPS.row({ subject: SETTINGS_EVENT_SUBJECTS.groupDeleted, payload: { tenantId: TENANT, group: finance } });
    expect(deletedEvent.values.is_deleted).toBe(true);
    const markedDeleted = GROUPS.row({ subject: SETTINGS_EVENT_SUBJECTS.groupUpdated, payload: { tenantId: TENANT, group: { ...finance, isDeleted: true } } });
    expect(markedDeleted.values.is_deleted).toBe(true);
  });
});
