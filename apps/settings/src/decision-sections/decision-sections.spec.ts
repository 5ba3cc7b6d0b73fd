import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CreateDecisionSectionDto } from './dto/decision-section-change.dto';
import { toDecisionSectionPayload, toDecisionSectionView } from './dto/decision-section.response';
import { ListDecisionSectionsQuery } from './dto/list-decision-sections.query';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

const S1 = '01890a5d-ac96-774b-bcce-b302099a8057';
const S2 = '01890a5d-ac96-774b-bcce-b302099a8058';

describe('decision section views', () => {
  const row = {
    id: 's1',
    tenant_id: 't1',
    section_name: 'Finance',
    is_deleted: false,
    categories: [{ id: 'c1', tenantId: 't1', sectionId: 's1', categoryName: 'Treasury', isDeleted: false }],
    created_at: '2026-01-31T12:00:00.000Z',
    updated_at: '2026-02-01T08:30:00.000Z',
  };

  it('the view has the product’s fields, its categories as the statement built them, and ISO timestamps', () => {
    expect(toDecisionSectionView(row)).toEqual({
      id: 's1',
      tenantId: 't1',
      sectionName: 'Finance',
      isDeleted: false,
      categories: [{ id: 'c1', tenantId: 't1', sectionId: 's1', categoryName: 'Treasury', isDeleted: false }],
      createdAt: '2026-01-31T12:00:00.000Z',
      updatedAt: '2026-02-01T08:30:00.000Z',
    });
  });

  it('the event carries exactly id, sectionName and isDeleted', () => {
    expect(toDecisionSectionPayload(toDecisionSectionView({ ...row, is_deleted: true }))).toEqual({ id: 's1', sectionName: 'Finance', isDeleted: true });
  });
});

describe('decision section input', () => {
  it('create: sectionName required, trimmed, 1..50; tenantId a UUID; nothing else', async () => {
    expect(await problems(CreateDecisionSectionDto, { sectionName: 'Finance', tenantId: S1 })).toEqual([]);
    expect(plainToInstance(CreateDecisionSectionDto, { sectionName: '  Finance ' }).sectionName).toBe('Finance');
    expect(await problems(CreateDecisionSectionDto, { sectionName: 'x'.repeat(50) })).toEqual([]);
    expect(await problems(CreateDecisionSectionDto, { sectionName: 'x'.repeat(51) })).toEqual(['sectionName']);
    expect(await problems(CreateDecisionSectionDto, { sectionName: '   ' })).toEqual(['sectionName']);
    expect(await problems(CreateDecisionSectionDto, { sectionName: null })).toEqual(['sectionName']);
    expect(await problems(CreateDecisionSectionDto, {})).toEqual(['sectionName']);
    expect(await problems(CreateDecisionSectionDto, { sectionName: 'A', tenantId: 'demo', isDeleted: false })).toEqual(['isDeleted', 'tenantId']);
  });

  it('list: defaults, comma lists of ids, sorts, bounds', async () => {
    const q = plainToInstance(ListDecisionSectionsQuery, { sectionIds: `${S1}, ${S2}`, categoryIds: S2 });
    expect(q).toMatchObject({ page: 1, limit: 10, sortBy: 'sectionName', sortOrder: 'asc', sectionIds: [S1, S2], categoryIds: [S2] });
    expect(await problems(ListDecisionSectionsQuery, { sectionIds: `${S1},nope` })).toEqual(['sectionIds']);
    expect(await problems(ListDecisionSectionsQuery, { categoryIds: Array(101).fill(S1).join(',') })).toEqual(['categoryIds']);
    expect(await problems(ListDecisionSectionsQuery, { sortBy: 'createdAt', sortOrder: 'desc', search: 'fin', tenantId: S1 })).toEqual([]);
    expect(await problems(ListDecisionSectionsQuery, { sortBy: 'categoryName' })).toEqual(['sortBy']);
    expect(await problems(ListDecisionSectionsQuery, { search: 's'.repeat(101), limit: '101' })).toEqual(['limit', 'search']);
  });
});
