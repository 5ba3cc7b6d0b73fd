import { GroupPayload, UserSummary } from '@ddm/contracts';
import { GROUPS } from './group.projection';
import { USERS } from './user.projection';

const T = '0190f5c4-0000-7000-8000-0000000000aa';
const U1 = '0190f5c4-0000-7000-8000-000000000001';
const ORG = '0190f5c4-0000-7000-8000-0000000000c1';
const POS = '0190f5c4-0000-7000-8000-0000000000d1';

const user = (over: Partial<UserSummary> = {}): UserSummary => ({
  id: U1,
  email: 'ada@x.test',
  name: 'Ada Lovelace',
  displayName: 'Ada',
  profileImageUrl: 'https://img/ada.png',
  mobilePhone: '+1 555',
  status: 'ACTIVE',
  positions: [{ id: POS, positionName: 'Analyst', autoProvisioned: false }],
  primaryOrganizationId: ORG,
  primaryOrganization: { id: ORG, groupName: 'Acme', displayName: null, tenantGroupTypeId: null, tenantGroupTypeName: 'Organizations', legalName: 'Acme Ltd', baseCurrency: 'EUR' },
  manager: { id: POS, name: 'Bo', displayName: null, profileImageUrl: null },
  groupIds: [ORG],
  permissionKeys: ['view:decisions'],
  ...over,
});

describe("the people projections' rows", () => {
  it('a member: the summary columns of actions.user_projection, per tenant', () => {
    const u = user();
    expect(USERS.perTenant).toBe(true);
    expect(USERS.row({ subject: 'evt.auth.user.updated', payload: { tenantId: T, user: u } })).toEqual({
      id: U1,
      tenantId: T,
      values: {
        email: 'ada@x.test',
        name: 'Ada Lovelace',
        display_name: 'Ada',
        profile_image_url: 'https://img/ada.png',
        mobile_phone: '+1 555',
        status: 'ACTIVE',
        positions: JSON.stringify([{ id: POS, positionName: 'Analyst', autoProvisioned: false }]),
        primary_organization_id: ORG,
        primary_organization: JSON.stringify(u.primaryOrganization),
        manager: JSON.stringify(u.manager),
      },
    });
  });

  it('a member without positions, organisation or manager; the organisation id from the organisation when only it is sent', () => {
    const bare = user({ positions: undefined, primaryOrganizationId: undefined, primaryOrganization: null, manager: null });
    expect(USERS.row({ subject: 'evt.auth.user.created', payload: { tenantId: T, user: bare } }).values).toMatchObject({
      positions: '[]',
      primary_organization_id: null,
      primary_organization: null,
      manager: null,
    });
    const orgOnly = user({ primaryOrganizationId: undefined });
    expect(USERS.row({ subject: 'evt.auth.user.created', payload: { tenantId: T, user: orgOnly } }).values).toMatchObject({ primary_organization_id: ORG });
  });

  it('a group: names, type, legal name and currency (null when absent), deleted as the event says', () => {
    const g: GroupPayload = {
      id: ORG,
      groupId: 'GACME1',
      groupName: 'Acme',
      displayName: 'ACME',
      tenantGroupTypeId: POS,
      tenantGroupTypeName: 'Organizations',
      status: 'ACTIVE',
      isDeleted: false,
      externalId: null,
      instanceId: null,
      legalName: 'Acme Ltd',
      baseCurrency: 'EUR',
    };
    expect(GROUPS.row({ subject: 'evt.settings.group.updated', payload: { tenantId: T, group: g } })).toEqual({
      id: ORG,
      tenantId: T,
      values: {
        group_name: 'Acme',
        display_name: 'ACME',
        tenant_group_type_id: POS,
        tenant_group_type_name: 'Organizations',
        legal_name: 'Acme Ltd',
        base_currency: 'EUR',
        is_deleted: false,
      },
    });
    const { legalName: _l, baseCurrency: _b, ...bare } = g;
    expect(GROUPS.row({ subject: 'evt.settings.group.deleted', payload: { tenantId: T, group: { ...bare, isDeleted: true } } }).values).toMatchObject({
      legal_name: null,
      base_currency: null,
      is_deleted: true,
    });
  });
});
