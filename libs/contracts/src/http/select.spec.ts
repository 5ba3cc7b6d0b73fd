import { Page } from './envelope';
import { pickFields, selectPage, viewFields } from './select';

interface View {
  id: string;
  name: string;
  nested: { a: number };
}

describe('select', () => {
  const view: View = { id: 'v1', name: 'One', nested: { a: 1 } };

  it('viewFields lists every key of the view, in the order written', () => {
    expect(viewFields<View>({ id: true, name: true, nested: true })).toEqual(['id', 'name', 'nested']);
  });

  it('pickFields keeps only the named keys; none named is the whole view', () => {
    expect(pickFields(view, ['nested', 'id'])).toEqual({ nested: { a: 1 }, id: 'v1' });
    expect(pickFields(view, [])).toBe(view);
    expect(pickFields(view, undefined)).toBe(view);
  });

  it('selectPage keeps the page, its total and extras, and narrows each item', () => {
    const page = new Page([view, { ...view, id: 'v2' }], 7, 2, 2, { note: 'x' });
    expect(selectPage(page, ['id'])).toEqual(new Page([{ id: 'v1' }, { id: 'v2' }], 7, 2, 2, { note: 'x' }));
    expect(selectPage(page, null)).toBe(page);
  });
});
