import { Injectable } from '@nestjs/common';
import { SETTINGS_EVENT_SUBJECTS } from '@ddm/contracts';
import { Db, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { PerTenantOnce } from '../core/tenant-once';
import { AuthorityTypeRow, toAuthorityTypePayload, toAuthorityTypeView } from './dto/authority-type.response';
import { DEFAULT_AUTHORITY_TYPES } from './authority-type.rules';
import { INSERT_DEFAULT_AUTHORITY_TYPES_SQL } from './authority-type.sql';

/** What other resources (the tenant-created consumer) and the authority types' own service ask of authority types: that the tenant has its default types. */
@Injectable()
export class AuthorityTypeRefs {
  /** Tenants whose default types this process has made sure of. */
  private readonly defaultsEnsured = new PerTenantOnce();

  constructor(private readonly db: Db) {}

  /**
   * Makes sure the tenant has Approval and Signatory (idempotent). Called lazily before lists and
   * creates, as a backstop of the tenant-created consumer.
   */
  async ensureDefaults(tenantId: string): Promise<void> {
    await this.defaultsEnsured.run(tenantId, () => this.db.transaction((tx) => this.insertDefaults(tx, tenantId)));
  }

  /**
   * Inserts the default types the tenant lacks; publishes `created` only for the rows actually
   * inserted. The tenant-created consumer calls it in the transaction that records its message.
   */
  async insertDefaults(tx: Tx, tenantId: string): Promise<void> {
    const rows = await tx.query<AuthorityTypeRow>(INSERT_DEFAULT_AUTHORITY_TYPES_SQL, [
      tenantId,
      DEFAULT_AUTHORITY_TYPES.map(() => uuidv7()),
      DEFAULT_AUTHORITY_TYPES.map((d) => d.authorityType),
      DEFAULT_AUTHORITY_TYPES.map((d) => d.authorityTypeOrder),
      DEFAULT_AUTHORITY_TYPES.map((d) => d.systemKey),
    ]);
    await tx.publishMany(
      SETTINGS_EVENT_SUBJECTS.authorityTypeCreated,
      rows.map((r) => ({ tenantId, authorityType: toAuthorityTypePayload(toAuthorityTypeView(r)) })),
    );
  }
}
