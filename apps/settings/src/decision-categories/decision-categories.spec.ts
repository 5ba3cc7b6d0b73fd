import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { eventKindOf, namesAChange } from './decision-category.rules';
import { CreateDecisionCategoryDto, UpdateDecisionCategoryDto } from './dto/decision-category-change.dto';
import { toDecisionCategoryPayload, toDecisionCategoryView } from './dto/decision-category.response';
import { ListDecisionCategoriesQuery } from './dto/list-decision-categories.query';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

const S1 = '01890a5d-ac96-774b-bcce-b302099a8057';

describe('decision category rules', () => {
  it('an update must name categoryName, sectionId (null included) or isDeleted: true', () => {
    expect(namesAChange({})).toBe(false);
    expect(namesAChange({ isDeleted: false })).toBe(false);
    expect(namesAChange({ categoryName: 'Treasury' })).toBe(true);
    expect(namesAChange({ sectionId: S1 })).toBe(true);
    expect(namesAChange({ sectionId: null })).toBe(true); // out of its section
    expect(namesAChange({ isDeleted: true })).toBe(true);
  });

  it('deleting publishes "deleted", whatever else changes with it; other changes "updated"', () => {
    expect(eventKindOf({ isDeleted: true, categoryName: 'X' })).toBe('deleted');
    expect(eventKindOf({ sectionId: null })).toBe('updated');
  });
});

describe('decision category views', () => {
  const row = {
    id: 'c1',
    tenant_id: 't1',
    category_name: 'Treasury',
    section_id: 's1',
    section: { id: 's1', tenantId: 't1', sectionName: 'Finance', isDeleted: false },
    is_deleted: false,
    created_at: '2026-01-31T12:00:00.000Z',
    updated_at: '2026-01-31T12:00:00.000Z',
  };

  it("the view answers its section's id and name, and the section as the product does", () => {
    expect(toDecisionCategoryView(row)).toEqual({
      id: 'c1',
      tenantId: 't1',
      categoryName: 'Treasury',
      sectionId: 's1',
      sectionName: 'Finance',
      section: { id: 's1', tenantId: 't1', sectionName: 'Finance', isDeleted: false },
      isDeleted: false,
      createdAt: '2026-01-31T12:00:00.000Z',
      updatedAt: '2026-01-31T12:00:00.000Z',
    });
  });

  it('a category in no section answers null for sectionId, sectionName and section', () => {
    expect(toDecisionCategoryView({ ...row, section_id: null, section: null })).toMatchObject({ sectionId: null, sectionName: null, section: null });
  });

  it('the event carries exactly id, categoryName, sectionId (null when in none) and isDeleted', () => {
    expect(toDecisionCategoryPayload(row)).toEqual({ id: 'c1', categoryName: 'Treasury', sectionId: 's1', isDeleted: false });
    expect(toDecisionCategoryPayload({ ...row, section_id: null, is_deleted: true })).toEqual({ id: 'c1', categoryName: 'Treasury', sectionId: null, isDeleted: true });
  });
});

describe('decision category input', () => {
  it('create: categoryName required, trimmed, 1..50; sectionId a UUID, absent or null; nothing else', async () => {
    expect(await problems(CreateDecisionCategoryDto, { categoryName: 'Treasury', sectionId: S1 })).toEqual([]);
    expect(await problems(CreateDecisionCategoryDto, { categoryName: 'Treasury', sectionId: null })).toEqual([]);
    expect(await problems(CreateDecisionCategoryDto, { categoryName: 'x'.repeat(50) })).toEqual([]);
    expect(plainToInstance(CreateDecisionCategoryDto, { categoryName: ' Treasury  ' }).categoryName).toBe('Treasury');
    expect(await problems(CreateDecisionCategoryDto, { categoryName: 'x'.repeat(51), sectionId: 'finance' })).toEqual(['categoryName', 'sectionId']);
    expect(await problems(CreateDecisionCategoryDto, {})).toEqual(['categoryName']);
    expect(await problems(CreateDecisionCategoryDto, { categoryName: 'A', isDeleted: false })).toEqual(['isDeleted']);
  });

  it('update: every field optional; categoryName and isDeleted refuse null, sectionId takes it; isDeleted takes "true"/"false"', async () => {
    expect(await problems(UpdateDecisionCategoryDto, {})).toEqual([]); // the service answers 400 "Nothing to change"
    expect(await problems(UpdateDecisionCategoryDto, { sectionId: null })).toEqual([]);
    expect(plainToInstance(UpdateDecisionCategoryDto, { isDeleted: 'true' }).isDeleted).toBe(true);
    expect(await problems(UpdateDecisionCategoryDto, { categoryName: null, isDeleted: null })).toEqual(['categoryName', 'isDeleted']);
    expect(await problems(UpdateDecisionCategoryDto, { categoryName: 'y'.repeat(51), sectionId: 7, isDeleted: 'maybe' })).toEqual(['categoryName', 'isDeleted', 'sectionId']);
  });

  it('list: defaults, comma lists of ids, sorts, bounds', async () => {
    expect(plainToInstance(ListDecisionCategoriesQuery, { sectionIds: S1 })).toMatchObject({ page: 1, limit: 10, sortBy: 'categoryName', sortOrder: 'asc', sectionIds: [S1] });
    expect(await problems(ListDecisionCategoriesQuery, { categoryIds: 'x', sectionIds: `${S1},` })).toEqual(['categoryIds']);
    expect(await problems(ListDecisionCategoriesQuery, { sortBy: 'sectionName' })).toEqual(['sortBy']);
    expect(await problems(ListDecisionCategoriesQuery, { sortBy: 'createdAt', sortOrder: 'desc' })).toEqual([]);
  });
});
