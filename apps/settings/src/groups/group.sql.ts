import { GroupPayload } from '@ddm/contracts';
import { isoSql } from '@ddm/platform';
import { EntityManager } from 'typeorm';


/** The tables behind a group's view: g = the group, t = its type, a = its address. */
export const GROUP_FROM = `settings.groups g
  JOIN settings.group_types t ON t.id = g.tenant_group_type_id
  LEFT JOIN settings.group_addresses a ON a.group_id = g.id`;

/**
 * Columns of a group as answered (spec §2.5), with its parents (non-deleted), direct children
 * (non-deleted) and delegation counts as correlated subqueries of the same statement.
 */
export const GROUP_COLUMNS = `
  g.id, g.tenant_id, g.group_code, g.group_name, g.display_name, g.legal_name, g.status, g.created_on, g.updated_on,
  g.is_synced, g.is_deleted, g.disable_option, g.base_currency, g.external_id, g.instance_id,
  t.id AS type_id, t.group_type_name, t.should_allow_enable_disable, t.is_default AS type_is_default, t.disable_option AS type_disable_option,
  a.id AS address_id, a.street1, a.street2, a.city, a.state, a.state_code, a.zip_code, a.country, a.country_code,
  a.created_on AS address_created_on, a.updated_on AS address_updated_on,
  (SELECT count(*) FROM settings.delegation_projection d
    WHERE d.group_ids @> ARRAY[g.id] AND d.revoked_on IS NULL AND d.tenant_id = g.tenant_id) AS delegations_count,
  (SELECT count(DISTINCT d.decision_id) FROM settings.delegation_projection d
    WHERE d.group_ids @> ARRAY[g.id] AND d.revoked_on IS NULL AND d.tenant_id = g.tenant_id) AS decisions_count,
  (SELECT json_agg(json_build_object(
            'id', l.id, 'parentId', l.parent_id, 'createdAt', ${isoSql('l.created_at')},
            'parentGroup', json_build_object(
              'id', pg.id, 'tenantId', pg.tenant_id, 'groupId', pg.group_code, 'groupName', pg.group_name,
              'displayName', pg.display_name, 'legalName', pg.legal_name, 'status', pg.status,
              'tenantGroupType', json_build_object('id', pt.id, 'groupTypeName', pt.group_type_name)))
          ORDER BY l.created_at, l.id)
     FROM settings.group_parents l
     JOIN settings.groups pg ON pg.id = l.parent_id AND NOT pg.is_deleted
     JOIN settings.group_types pt ON pt.id = pg.tenant_group_type_id
    WHERE l.group_id = g.id AND l.tenant_id = g.tenant_id) AS parent_groups,
  (SELECT json_agg(json_build_object(
            'id', cg.id, 'groupId', cg.group_code, 'groupName', cg.group_name, 'displayName', cg.display_name, 'status', cg.status,
            'tenantGroupType', json_build_object('id', ct.id, 'groupTypeName', ct.group_type_name))
          ORDER BY lower(cg.group_name), cg.id)
     FROM settings.group_parents l
     JOIN settings.groups cg ON cg.id = l.group_id AND NOT cg.is_deleted
     JOIN settings.group_types ct ON ct.id = cg.tenant_group_type_id
    WHERE l.parent_id = g.id AND l.tenant_id = g.tenant_id) AS child_groups`;

interface PayloadRow {
  id: string;
  group_code: string;
  group_name: string;
  display_name: string | null;
  tenant_group_type_id: string;
  group_type_name: string;
  status: string;
  is_deleted: boolean;
  external_id: string | null;
  instance_id: string | null;
  legal_name: string | null;
  base_currency: string | null;
  parent_ids: string[];
}

/**
 * Event payloads of the tenant's groups matching `where` (over g and t; its parameters start at $2),
 * in one statement. `parentGroupIds` lists the parents the view shows (not deleted).
 */
export async function groupPayloads(m: EntityManager, tenantId: string, where: string, params: unknown[]): Promise<GroupPayload[]> {
  const rows: PayloadRow[] = await m.query(
    `SELECT g.id, g.group_code, g.group_name, g.display_name, g.tenant_group_type_id, t.group_type_name, g.status, g.is_deleted,
            g.external_id, g.instance_id, g.legal_name, g.base_currency,
            ARRAY(SELECT l.parent_id::text FROM settings.group_parents l JOIN settings.groups pg ON pg.id = l.parent_id AND NOT pg.is_deleted
                   WHERE l.group_id = g.id ORDER BY l.created_at, l.id) AS parent_ids
       FROM settings.groups g JOIN settings.group_types t ON t.id = g.tenant_group_type_id
      WHERE g.tenant_id = $1 AND ${where}
      ORDER BY g.id`,
    [tenantId, ...params],
  );
  return rows.map((r) => ({
    id: r.id,
    groupId: r.group_code,
    groupName: r.group_name,
    displayName: r.display_name,
    tenantGroupTypeId: r.tenant_group_type_id,
    tenantGroupTypeName: r.group_type_name,
    status: r.status,
    isDeleted: r.is_deleted,
    externalId: r.external_id,
    instanceId: r.instance_id,
    legalName: r.legal_name,
    baseCurrency: r.base_currency,
    parentGroupIds: r.parent_ids,
  }));
}
