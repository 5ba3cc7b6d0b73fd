import { Injectable } from '@nestjs/common';
import { Db, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { PerTenantOnce } from '../core/tenant-once';
import { DEFAULT_VERSIONING_FIELDS } from './document-versioning.rules';
import { INSERT_DEFAULT_VERSIONING_FIELDS_SQL } from './document-versioning.sql';

/** What the tenant-created consumer and the fields' own service ask of document versioning fields: that the tenant has its defaults. */
@Injectable()
export class DocumentVersioningRefs {
  /** Tenants whose default fields this process has made sure of. */
  private readonly defaultsEnsured = new PerTenantOnce();

  constructor(private readonly db: Db) {}

  /** Makes sure the tenant has the default fields (idempotent); a backstop of the tenant-created consumer (tenants made before the table). */
  async ensureDefaults(tenantId: string): Promise<void> {
    await this.defaultsEnsured.run(tenantId, () => this.db.transaction((tx) => this.insertDefaults(tx, tenantId)));
  }

  /** Inserts the default fields the tenant lacks. */
  async insertDefaults(tx: Tx, tenantId: string): Promise<void> {
    const d = DEFAULT_VERSIONING_FIELDS;
    await tx.query(INSERT_DEFAULT_VERSIONING_FIELDS_SQL, [tenantId, d.map(() => uuidv7()), d.map((f) => f.key), d.map((f) => f.fieldName), d.map((f) => f.fieldType)]);
  }
}
