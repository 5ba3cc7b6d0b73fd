import { Injectable } from '@nestjs/common';
import { Page, notFound, selectPage } from '@ddm/contracts';
import { Db, listPage } from '@ddm/platform';
import { DocumentVersioningRefs } from './document-versioning-refs';
import { VERSIONING_FIELD_BY_ID_SQL, versioningFieldList } from './document-versioning.sql';
import { DocumentVersioningFieldRow, DocumentVersioningFieldView, toDocumentVersioningFieldView } from './dto/document-versioning.response';
import { ListDocumentVersioningQuery } from './dto/list-document-versioning.query';

/** Document versioning fields of a tenant (Version Number, Effective Date, Review Date, then the tenant's own): listed and read. */
@Injectable()
export class DocumentVersioningService {
  constructor(
    private readonly db: Db,
    private readonly defaults: DocumentVersioningRefs,
  ) {}

  /** One statement: the page of the tenant's fields that match, and their total (see document-versioning.sql.ts). */
  async list(tenantId: string, q: ListDocumentVersioningQuery): Promise<Page<Partial<DocumentVersioningFieldView>>> {
    await this.defaults.ensureDefaults(tenantId);
    return selectPage(await listPage(this.db, versioningFieldList(tenantId, q), toDocumentVersioningFieldView), q.select);
  }

  /** A live field of the tenant; 404 for an unknown, deleted or another tenant's. */
  async get(tenantId: string, id: string): Promise<DocumentVersioningFieldView> {
    await this.defaults.ensureDefaults(tenantId);
    const [row] = await this.db.query<DocumentVersioningFieldRow>(VERSIONING_FIELD_BY_ID_SQL, [id, tenantId]);
    if (!row) throw notFound(`Document versioning field ${id} not found`, [{ field: 'id', message: `Document versioning field ${id} not found` }]);
    return toDocumentVersioningFieldView(row);
  }
}
