import { INestApplicationContext } from '@nestjs/common';
import { Db } from '@ddm/platform';
import { AuthorityTypeRefs } from './authority-types/authority-type-refs';
import { DecisionCategoriesService } from './decision-categories/decision-categories.service';
import { DecisionRolesService } from './decision-roles/decision-roles.service';
import { DecisionSectionsService } from './decision-sections/decision-sections.service';
import { DocumentVersioningRefs } from './document-versioning/document-versioning-refs';
import { GroupTypeRefs } from './group-types/group-type-refs';
import { GroupsService } from './groups/groups.service';
import { PositionsService } from './positions/positions.service';

type TypeKey = 'ORGANIZATIONS' | 'LOCATIONS' | 'DEPARTMENTS';

interface SeedGroup {
  key: string;
  groupName: string;
  type: TypeKey;
  /** Keys of groups seeded before this one. */
  parents: string[];
  legalName?: string;
  baseCurrency?: string;
  address?: { street1: string; city: string; state?: string; stateCode?: string; zipCode: string; country: string; countryCode: string };
}

/** Demo Co's structure: organisations over regions over sites and departments (three levels, 12 groups). */
const GROUPS: SeedGroup[] = [
  {
    key: 'holdings',
    groupName: 'Demo Co Holdings',
    type: 'ORGANIZATIONS',
    parents: [],
    legalName: 'Demo Co Holdings Ltd',
    baseCurrency: 'USD',
    address: { street1: '1 Market Street', city: 'San Francisco', state: 'California', stateCode: 'CA', zipCode: '94105', country: 'United States', countryCode: 'US' },
  },
  { key: 'na', groupName: 'Demo Co North America', type: 'ORGANIZATIONS', parents: ['holdings'], legalName: 'Demo Co North America Inc', baseCurrency: 'USD' },
  { key: 'eu', groupName: 'Demo Co Europe', type: 'ORGANIZATIONS', parents: ['holdings'], legalName: 'Demo Co Europe GmbH', baseCurrency: 'EUR' },
  { key: 'nyc', groupName: 'New York HQ', type: 'LOCATIONS', parents: ['na'] },
  { key: 'tor', groupName: 'Toronto Office', type: 'LOCATIONS', parents: ['na'] },
  { key: 'lon', groupName: 'London HQ', type: 'LOCATIONS', parents: ['eu'] },
  { key: 'ber', groupName: 'Berlin Office', type: 'LOCATIONS', parents: ['eu'] },
  { key: 'fin', groupName: 'Finance', type: 'DEPARTMENTS', parents: ['na', 'eu'] },
  { key: 'legal', groupName: 'Legal', type: 'DEPARTMENTS', parents: ['na', 'eu'] },
  { key: 'ops', groupName: 'Operations', type: 'DEPARTMENTS', parents: ['na'] },
  { key: 'eng', groupName: 'Engineering', type: 'DEPARTMENTS', parents: ['eu'] },
  { key: 'people', groupName: 'People', type: 'DEPARTMENTS', parents: ['na', 'eu'] },
];

/** 22 positions, each in one or more of the groups above. */
const POSITIONS: { positionName: string; groups: string[] }[] = [
  { positionName: 'Chief Executive Officer', groups: ['holdings'] },
  { positionName: 'Chief Financial Officer', groups: ['holdings', 'fin'] },
  { positionName: 'Chief Operating Officer', groups: ['holdings', 'ops'] },
  { positionName: 'Chief Technology Officer', groups: ['holdings', 'eng'] },
  { positionName: 'General Counsel', groups: ['holdings', 'legal'] },
  { positionName: 'Regional Director North America', groups: ['na'] },
  { positionName: 'Regional Director Europe', groups: ['eu'] },
  { positionName: 'Financial Controller North America', groups: ['na', 'fin'] },
  { positionName: 'Financial Controller Europe', groups: ['eu', 'fin'] },
  { positionName: 'Treasurer', groups: ['fin'] },
  { positionName: 'Accounts Payable Lead', groups: ['fin', 'nyc'] },
  { positionName: 'Legal Counsel North America', groups: ['legal', 'nyc'] },
  { positionName: 'Legal Counsel Europe', groups: ['legal', 'lon'] },
  { positionName: 'Site Manager New York', groups: ['nyc', 'ops'] },
  { positionName: 'Site Manager Toronto', groups: ['tor', 'ops'] },
  { positionName: 'Site Manager London', groups: ['lon'] },
  { positionName: 'Site Manager Berlin', groups: ['ber'] },
  { positionName: 'Procurement Lead', groups: ['ops'] },
  { positionName: 'Engineering Manager', groups: ['eng', 'ber'] },
  { positionName: 'Staff Engineer', groups: ['eng'] },
  { positionName: 'People Partner North America', groups: ['people', 'tor'] },
  { positionName: 'People Partner Europe', groups: ['people', 'lon'] },
];

const DECISION_ROLES = ['Approver', 'Recommender', 'Consulted', 'Informed', 'Performer'];

/** Decision sections and the categories in each (5 sections, 13 categories). */
const DECISION_SECTIONS: { sectionName: string; categories: string[] }[] = [
  { sectionName: 'Finance', categories: ['Procurement', 'Capital Expenditure', 'Treasury', 'Travel & Expenses'] },
  { sectionName: 'Commercial', categories: ['Sales Contracts', 'Pricing & Discounts', 'Partnerships'] },
  { sectionName: 'People', categories: ['Hiring', 'Compensation'] },
  { sectionName: 'Operations', categories: ['Facilities', 'IT & Security'] },
  { sectionName: 'Legal & Compliance', categories: ['Litigation', 'Regulatory'] },
];

/** What the tenant holds after the seed (not deleted). */
export interface SettingsSeedResult {
  groups: number;
  positions: number;
  decisionRoles: number;
  decisionSections: number;
  decisionCategories: number;
  authorityTypes: number;
}

/**
 * The settings structure of Demo Co (other tenants get their default group and authority types
 * and document versioning fields only). Safe to run again: a group, position, role, section or category already there by name is
 * kept. Everything goes through the services, so the events other areas project are published as
 * for any change.
 */
export async function seedSettings(app: INestApplicationContext, tenant: { id: string; name: string }): Promise<SettingsSeedResult> {
  const db = app.get(Db);
  await app.get(GroupTypeRefs).ensureDefaults(tenant.id);
  await app.get(AuthorityTypeRefs).ensureDefaults(tenant.id);
  await app.get(DocumentVersioningRefs).ensureDefaults(tenant.id);
  if (tenant.name !== 'Demo Co') return countsOf(db, tenant.id);

  const types = new Map(
    (await db.query<{ id: string; system_key: TypeKey }>(`SELECT id, system_key FROM settings.group_types WHERE tenant_id = $1 AND system_key IS NOT NULL`, [tenant.id])).map((t) => [
      t.system_key,
      t.id,
    ]),
  );
  const groups = app.get(GroupsService);
  const groupIds = new Map<string, string>();
  for (const g of GROUPS) {
    const [existing] = await db.query<{ id: string }>(`SELECT id FROM settings.groups WHERE tenant_id = $1 AND group_name = $2 AND NOT is_deleted`, [tenant.id, g.groupName]);
    const id =
      existing?.id ??
      (
        await groups.create(
          tenant.id,
          {
            tenantGroupTypeId: types.get(g.type)!,
            groupName: g.groupName,
            displayName: g.groupName,
            legalName: g.legalName,
            baseCurrency: g.baseCurrency,
            status: 'ACTIVE',
            parentGroupIds: g.parents.map((p) => groupIds.get(p)!),
            address: g.address,
          },
          null,
        )
      ).id;
    groupIds.set(g.key, id);
  }

  const positions = app.get(PositionsService);
  for (const p of POSITIONS) {
    const [existing] = await db.query(`SELECT 1 FROM settings.positions WHERE tenant_id = $1 AND lower(position_name) = lower($2) AND NOT is_deleted`, [tenant.id, p.positionName]);
    if (!existing) await positions.create(tenant.id, { positionName: p.positionName, groupIds: p.groups.map((k) => groupIds.get(k)!), status: 'ACTIVE' }, null);
  }

  const roles = app.get(DecisionRolesService);
  for (const roleName of DECISION_ROLES) {
    const [existing] = await db.query(`SELECT 1 FROM settings.decision_roles WHERE tenant_id = $1 AND lower(role_name) = lower($2) AND NOT is_deleted`, [tenant.id, roleName]);
    if (!existing) await roles.create(tenant.id, { roleName, status: 'ACTIVE' }, null);
  }

  const sections = app.get(DecisionSectionsService);
  const categories = app.get(DecisionCategoriesService);
  for (const section of DECISION_SECTIONS) {
    const [existing] = await db.query<{ id: string }>(
      `SELECT id FROM settings.decision_sections WHERE tenant_id = $1 AND lower(section_name) = lower($2) AND NOT is_deleted`,
      [tenant.id, section.sectionName],
    );
    const sectionId = existing?.id ?? (await sections.create(tenant.id, { sectionName: section.sectionName }, null)).id;
    for (const categoryName of section.categories) {
      const [there] = await db.query(`SELECT 1 FROM settings.decision_categories WHERE tenant_id = $1 AND lower(category_name) = lower($2) AND NOT is_deleted`, [
        tenant.id,
        categoryName,
      ]);
      if (!there) await categories.create(tenant.id, { categoryName, sectionId }, null);
    }
  }
  return countsOf(db, tenant.id);
}

async function countsOf(db: Db, tenantId: string): Promise<SettingsSeedResult> {
  const [counts] = await db.query<SettingsSeedResult>(
    `SELECT (SELECT count(*)::int FROM settings.groups WHERE tenant_id = $1 AND NOT is_deleted) AS groups,
            (SELECT count(*)::int FROM settings.positions WHERE tenant_id = $1 AND NOT is_deleted) AS positions,
            (SELECT count(*)::int FROM settings.decision_roles WHERE tenant_id = $1 AND NOT is_deleted) AS "decisionRoles",
            (SELECT count(*)::int FROM settings.decision_sections WHERE tenant_id = $1 AND NOT is_deleted) AS "decisionSections",
            (SELECT count(*)::int FROM settings.decision_categories WHERE tenant_id = $1 AND NOT is_deleted) AS "decisionCategories",
            (SELECT count(*)::int FROM settings.authority_types WHERE tenant_id = $1 AND NOT is_deleted) AS "authorityTypes"`,
    [tenantId],
  );
  return counts;
}
