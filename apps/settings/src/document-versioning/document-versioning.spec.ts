import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DEFAULT_VERSIONING_FIELDS, VERSIONING_FIELD_TYPES } from './document-versioning.rules';
import { DOCUMENT_VERSIONING_FIELDS, toDocumentVersioningFieldView } from './dto/document-versioning.response';
import { ListDocumentVersioningQuery } from './dto/list-document-versioning.query';

describe('document versioning fields', () => {
  it('every tenant starts with Version Number, Effective Date and Review Date, each of a known type and a system key of its own', () => {
    expect(DEFAULT_VERSIONING_FIELDS.map((f) => [f.fieldName, f.fieldType])).toEqual([
      ['Version Number', 'string'],
      ['Effective Date', 'date'],
      ['Review Date', 'date'],
    ]);
    for (const f of DEFAULT_VERSIONING_FIELDS) expect(VERSIONING_FIELD_TYPES).toContain(f.fieldType);
    expect(new Set(DEFAULT_VERSIONING_FIELDS.map((f) => f.key)).size).toBe(DEFAULT_VERSIONING_FIELDS.length);
  });

  it('the view has exactly the product\'s fields, status a boolean', () => {
    const view = toDocumentVersioningFieldView({
      id: 'f1',
      tenant_id: 't1',
      field_name: 'Version Number',
      field_type: 'string',
      status: true,
      is_default: true,
      is_deleted: false,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    });
    expect(view).toEqual({
      id: 'f1',
      tenantId: 't1',
      fieldName: 'Version Number',
      fieldType: 'string',
      status: true,
      isDefault: true,
      isDeleted: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
    expect([...DOCUMENT_VERSIONING_FIELDS].sort()).toEqual(Object.keys(view).sort());
  });

  it('the list query takes the product\'s names and refuses unknown sorts and fields', async () => {
    const problems = async (plain: object) =>
      (await validate(plainToInstance(ListDocumentVersioningQuery, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();
    expect(await problems({ versioningFieldIds: '0190a000-0000-7000-8000-000000000001', search: 'Date', sortBy: 'fieldName', select: 'id,fieldName' })).toEqual([]);
    expect(await problems({ sortBy: 'id', select: 'nope', versioningFieldIds: 'x' })).toEqual(['select', 'sortBy', 'versioningFieldIds']);
  });
});
