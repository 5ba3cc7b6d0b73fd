import { Injectable } from '@nestjs/common';
import { SETTINGS_EVENT_SUBJECTS } from '@ddm/contracts';
import { Db, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { PerTenantOnce } from '../core/tenant-once';
import { GroupTypeRow, toGroupTypePayload } from './dto/group-type.response';
import { DEFAULT_GROUP_TYPES } from './group-type.rules';
import { GROUP_TYPE_COLUMNS } from './group-type.sql';

/**
 * What other resources (groups, the tenant-created consumer) and the group types' own service ask
 * of group types: that the tenant has its default types.
 */
@Injectable()
export class GroupTypeRefs {
  /** Tenants whose default types this process has made sure of: after the first time, it costs nothing (bounded). */
  private readonly defaultsEnsured = new PerTenantOnce();

  constructor(private readonly db: Db) {}

  /**
   * Makes sure the tenant has Organizations, Locations and Departments (idempotent). Called lazily
   * before group-type lists and creates and group creates, as a backstop of the tenant-created consumer.
   */
  async ensureDefaults(tenantId: string): Promise<void> {
    await this.defaultsEnsured.run(tenantId, () => this.db.transaction((tx) => this.insertDefaults(tx, tenantId)));
  }

  /**
   * Inserts the default types the tenant lacks; publishes `created` only for the rows actually
   * inserted. The tenant-created consumer calls it in the transaction that records its message.
   */
  async insertDefaults(tx: Tx, tenantId: string): Promise<void> {
    // No conflict target: a default already there (tenant_id, system_key) or a clashing name is skipped, never an error.
    const rows = await tx.query<GroupTypeRow>(
      `INSERT INTO settings.group_types AS t (id, tenant_id, group_type_name, system_key, is_default, should_allow_enable_disable, address_enabled)
       SELECT x.id, $1, x.name, x.key, true, x.allow, x.address
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::boolean[], $6::boolean[]) WITH ORDINALITY AS x(id, name, key, allow, address, n)
        ORDER BY x.n
       ON CONFLICT DO NOTHING
       RETURNING ${GROUP_TYPE_COLUMNS}`,
      [
        tenantId,
        DEFAULT_GROUP_TYPES.map(() => uuidv7()),
        DEFAULT_GROUP_TYPES.map((d) => d.groupTypeName),
        DEFAULT_GROUP_TYPES.map((d) => d.systemKey),
        DEFAULT_GROUP_TYPES.map((d) => d.shouldAllowEnableDisable),
        DEFAULT_GROUP_TYPES.map((d) => d.addressEnabled),
      ],
    );
    await tx.publishMany(
      SETTINGS_EVENT_SUBJECTS.groupTypeCreated,
      rows.map((r) => ({ tenantId, groupType: toGroupTypePayload(r) })),
    );
  }
}
