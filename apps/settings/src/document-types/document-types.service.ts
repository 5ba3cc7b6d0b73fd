import { Injectable } from '@nestjs/common';
import { DocumentTypeEvent, Page, SETTINGS_EVENT_SUBJECTS, badRequest, conflict, notFound, selectPage } from '@ddm/contracts';
import { Db, TenantUniqueName, listPage, raw, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { auditedChange } from '../core/change.sql';
import { nothingToChange } from '../core/change.rules';
import { DOCUMENT_TYPE_UPDATE_FIELDS, documentTypeChangeProblem, eventKindOf, namesAChange } from './document-type.rules';
import { DOCUMENT_TYPE_COLUMNS, LOCK_DOCUMENT_TYPE_SQL, documentTypeList } from './document-type.sql';
import { CreateDocumentTypeDto, UpdateDocumentTypeDto } from './dto/document-type-change.dto';
import { DocumentTypeRow, DocumentTypeView, toDocumentTypePayload, toDocumentTypeView } from './dto/document-type.response';
import { ListDocumentTypesQuery } from './dto/list-document-types.query';
import { DocumentTypeRefs } from './document-type-refs';

const EVENT_SUBJECT = {
  created: SETTINGS_EVENT_SUBJECTS.documentTypeCreated,
  updated: SETTINGS_EVENT_SUBJECTS.documentTypeUpdated,
  deleted: SETTINGS_EVENT_SUBJECTS.documentTypeDeleted,
} as const;

const event = (tenantId: string, row: DocumentTypeRow): DocumentTypeEvent => ({ tenantId, documentType: toDocumentTypePayload(toDocumentTypeView(row)) });

/**
 * Document types of a tenant (Policy, Procedure, Charter, Resolution, Contract, then the tenant's
 * own): listed, created, renamed, (de)activated, and deleted softly (never a default one). Every
 * change publishes its event in its transaction; the document area projects them.
 */
@Injectable()
export class DocumentTypesService {
  constructor(
    private readonly db: Db,
    private readonly defaults: DocumentTypeRefs,
  ) {}

  /** One statement: the page of the tenant's types that match, and their total (see document-type.sql.ts). */
  async list(tenantId: string, q: ListDocumentTypesQuery): Promise<Page<Partial<DocumentTypeView>>> {
    await this.defaults.ensureDefaults(tenantId);
    return selectPage(await listPage(this.db, documentTypeList(tenantId, q), toDocumentTypeView), q.select);
  }

  async create(tenantId: string, dto: CreateDocumentTypeDto, by: string | null): Promise<DocumentTypeView> {
    await this.defaults.ensureDefaults(tenantId);
    return this.db.transaction(async (tx) => {
      await refuseTakenName(tx, DOCUMENT_TYPE_NAME, tenantId, dto.documentTypeName, null);
      const [row] = await writeUniqueName(DOCUMENT_TYPE_NAME, dto.documentTypeName, () =>
        tx.query<DocumentTypeRow>(
          `INSERT INTO settings.document_types AS t (id, tenant_id, document_type_name, document_type_icon, status, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${DOCUMENT_TYPE_COLUMNS}`,
          [uuidv7(), tenantId, dto.documentTypeName, dto.documentTypeIcon ?? null, dto.status ?? 'ACTIVE', by],
        ),
      );
      await tx.publish(EVENT_SUBJECT.created, event(tenantId, row));
      return toDocumentTypeView(row);
    });
  }

  /**
   * Renames, sets or clears the icon, (de)activates or deletes (softly) a type of the caller's
   * tenant. A deleted type, or another tenant's, is a 404; deleting a default type is a 409;
   * `{}` and `isDeleted: false` alone are a 400 (nothing to change).
   */
  async update(tenantId: string, id: string, dto: UpdateDocumentTypeDto, by: string | null): Promise<DocumentTypeView> {
    if (!namesAChange(dto)) throw badRequest(nothingToChange(DOCUMENT_TYPE_UPDATE_FIELDS));
    return this.db.transaction(async (tx) => {
      const [current] = await tx.query<{ document_type_name: string; is_default: boolean }>(LOCK_DOCUMENT_TYPE_SQL, [id, tenantId]);
      if (!current) throw notFound(`Document type ${id} not found`);
      const problem = documentTypeChangeProblem({ documentTypeName: current.document_type_name, isDefault: current.is_default }, dto);
      if (problem) throw conflict(problem);
      if (dto.documentTypeName !== undefined && dto.isDeleted !== true) await refuseTakenName(tx, DOCUMENT_TYPE_NAME, tenantId, dto.documentTypeName, id);

      const sets = auditedChange(by, dto.isDeleted === true);
      if (dto.documentTypeName !== undefined) sets.set('document_type_name', dto.documentTypeName);
      if (dto.documentTypeIcon !== undefined) sets.set('document_type_icon', dto.documentTypeIcon);
      if (dto.status !== undefined) sets.set('status', dto.status);
      const [row] = await writeUniqueName(DOCUMENT_TYPE_NAME, dto.documentTypeName ?? current.document_type_name, () =>
        tx.query<DocumentTypeRow>(sql`UPDATE settings.document_types t SET ${sets.sql} WHERE t.id = ${id} AND t.tenant_id = ${tenantId} RETURNING ${raw(DOCUMENT_TYPE_COLUMNS)}`),
      );
      await tx.publish(EVENT_SUBJECT[eventKindOf(dto)], event(tenantId, row));
      return toDocumentTypeView(row);
    });
  }
}

/** 409 when another live type of the tenant has the name (in any case). The unique index backs this up against races, with the same 409. */
const DOCUMENT_TYPE_NAME: TenantUniqueName = {
  table: 'settings.document_types',
  column: 'document_type_name',
  index: 'document_types_name',
  taken: (name) => `A document type named "${name}" already exists in this tenant`,
};
