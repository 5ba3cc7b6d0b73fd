import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DEFAULT_DOCUMENT_TYPES, documentTypeChangeProblem, eventKindOf, namesAChange } from './document-type.rules';
import { CreateDocumentTypeDto, UpdateDocumentTypeDto } from './dto/document-type-change.dto';
import { toDocumentTypePayload, toDocumentTypeView } from './dto/document-type.response';
import { ListDocumentTypesQuery } from './dto/list-document-types.query';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

describe('document type rules', () => {
  it('every tenant starts with Policy, Procedure, Charter, Resolution and Contract', () => {
    expect([...DEFAULT_DOCUMENT_TYPES]).toEqual(['Policy', 'Procedure', 'Charter', 'Resolution', 'Contract']);
  });

  it('a default type is never deleted; it may be renamed, given an icon, deactivated; other types may be deleted', () => {
    const policy = { documentTypeName: 'Policy', isDefault: true };
    expect(documentTypeChangeProblem(policy, { isDeleted: true })).toBe('The document type "Policy" is a default type and cannot be deleted');
    expect(documentTypeChangeProblem(policy, { documentTypeName: 'Policies', documentTypeIcon: 'x', status: 'INACTIVE', isDeleted: false })).toBeNull();
    expect(documentTypeChangeProblem({ documentTypeName: 'Guideline', isDefault: false }, { isDeleted: true })).toBeNull();
  });

  it('an update names a field (a null icon included); isDeleted: false alone is nothing; deleting publishes "deleted"', () => {
    expect(namesAChange({})).toBe(false);
    expect(namesAChange({ isDeleted: false })).toBe(false);
    expect(namesAChange({ documentTypeIcon: null })).toBe(true);
    expect(namesAChange({ status: 'INACTIVE' })).toBe(true);
    expect(eventKindOf({ isDeleted: true, documentTypeName: 'X' })).toBe('deleted');
    expect(eventKindOf({ documentTypeName: 'X' })).toBe('updated');
  });

  it('the view and the event carry the fields the document area projects', () => {
    const view = toDocumentTypeView({
      id: 'd1',
      tenant_id: 't1',
      document_type_name: 'Policy',
      document_type_icon: null,
      status: 'ACTIVE',
      is_default: true,
      is_deleted: false,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    });
    expect(view).toEqual({
      id: 'd1',
      tenantId: 't1',
      documentTypeName: 'Policy',
      documentTypeIcon: null,
      status: 'ACTIVE',
      isDefault: true,
      isDeleted: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
    expect(toDocumentTypePayload(view)).toEqual({ id: 'd1', documentTypeName: 'Policy', documentTypeIcon: null, status: 'ACTIVE', isDefault: true, isDeleted: false });
  });
});

describe('document type input', () => {
  it('create: a name 1..150 (trimmed), an optional icon, ACTIVE or INACTIVE; nothing else', async () => {
    expect(await problems(CreateDocumentTypeDto, { documentTypeName: 'Guideline' })).toEqual([]);
    expect(plainToInstance(CreateDocumentTypeDto, { documentTypeName: ' Guideline ' }).documentTypeName).toBe('Guideline');
    expect(await problems(CreateDocumentTypeDto, { documentTypeName: 'x'.repeat(151) })).toEqual(['documentTypeName']);
    expect(await problems(CreateDocumentTypeDto, { documentTypeName: '  ' })).toEqual(['documentTypeName']);
    expect(await problems(CreateDocumentTypeDto, { documentTypeName: 'A', status: 'FOO' })).toEqual(['status']);
    expect(await problems(CreateDocumentTypeDto, { documentTypeName: 'A', isDefault: true })).toEqual(['isDefault']);
    expect(await problems(CreateDocumentTypeDto, { documentTypeName: 'A', documentTypeIcon: null })).toEqual([]);
  });

  it('update: isDeleted as a boolean or "true"/"false"; null name is refused', async () => {
    expect(plainToInstance(UpdateDocumentTypeDto, { isDeleted: 'true' }).isDeleted).toBe(true);
    expect(await problems(UpdateDocumentTypeDto, { isDeleted: 'yes' })).toEqual(['isDeleted']);
    expect(await problems(UpdateDocumentTypeDto, { documentTypeName: null })).toEqual(['documentTypeName']);
  });

  it('list: defaults and bounds', async () => {
    expect(plainToInstance(ListDocumentTypesQuery, {})).toMatchObject({ page: 1, limit: 10, sortBy: 'documentTypeName', sortOrder: 'asc' });
    expect(await problems(ListDocumentTypesQuery, { limit: '101' })).toEqual(['limit']);
    expect(await problems(ListDocumentTypesQuery, { sortBy: 'status' })).toEqual(['sortBy']);
  });
});
