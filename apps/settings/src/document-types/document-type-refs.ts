import { Injectable } from '@nestjs/common';
import { SETTINGS_EVENT_SUBJECTS } from '@ddm/contracts';
import { Db, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { PerTenantOnce } from '../core/tenant-once';
import { DocumentTypeRow, toDocumentTypePayload, toDocumentTypeView } from './dto/document-type.response';
import { DEFAULT_DOCUMENT_TYPES } from './document-type.rules';
import { INSERT_DEFAULT_DOCUMENT_TYPES_SQL } from './document-type.sql';

/** What other resources (the tenant-created consumer) and the document types' own service ask of document types: that the tenant has its default types. */
@Injectable()
export class DocumentTypeRefs {
  /** Tenants whose default types this process has made sure of. */
  private readonly defaultsEnsured = new PerTenantOnce();

  constructor(private readonly db: Db) {}

  /** Makes sure the tenant has the default types (idempotent); a backstop of the tenant-created consumer. */
  async ensureDefaults(tenantId: string): Promise<void> {
    await this.defaultsEnsured.run(tenantId, () => this.db.transaction((tx) => this.insertDefaults(tx, tenantId)));
  }

  /** Inserts the default types the tenant lacks; publishes `created` only for the rows actually inserted. */
  async insertDefaults(tx: Tx, tenantId: string): Promise<void> {
    const rows = await tx.query<DocumentTypeRow>(INSERT_DEFAULT_DOCUMENT_TYPES_SQL, [tenantId, DEFAULT_DOCUMENT_TYPES.map(() => uuidv7()), [...DEFAULT_DOCUMENT_TYPES]]);
    await tx.publishMany(
      SETTINGS_EVENT_SUBJECTS.documentTypeCreated,
      rows.map((r) => ({ tenantId, documentType: toDocumentTypePayload(toDocumentTypeView(r)) })),
    );
  }
}
