import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { actionDefaultId } from '@ddm/contracts';
import { actionTypeOf, defaultTemplates } from './action-template.rules';
import { toActionTemplatePayload, toActionTemplateView } from './dto/action-template.response';
import { ListActionTemplatesQuery } from './dto/list-action-templates.query';

const T = '0190f5c4-0000-7000-8000-0000000000aa';

describe('action template rules', () => {
  it('every tenant starts with Send Email, Schedule Meeting, Review Document, Prepare Report, with ids the actions area derives alike', () => {
    const d = defaultTemplates(T);
    expect(d.map((t) => t.name)).toEqual(['Send Email', 'Schedule Meeting', 'Review Document', 'Prepare Report']);
    expect(d[0].id).toBe(actionDefaultId(T, 'template', 'SEND_EMAIL'));
    expect(d[0].actionTypeId).toBe(actionDefaultId(T, 'type', 'EMAIL'));
    expect(new Set(d.map((t) => t.id)).size).toBe(4);
    expect(defaultTemplates('0190f5c4-0000-7000-8000-0000000000bb')[0].id).not.toBe(d[0].id);
  });

  it("a template's type is the default action type of that id in the tenant, else null", () => {
    expect(actionTypeOf(T, actionDefaultId(T, 'type', 'MEETING'))).toEqual({
      id: actionDefaultId(T, 'type', 'MEETING'), tenantId: T, type: 'MEETING', name: 'Meeting', typeIcon: 'calendar', status: true, isCustom: false,
    });
    expect(actionTypeOf(T, actionDefaultId('0190f5c4-0000-7000-8000-0000000000bb', 'type', 'MEETING'))).toBeNull();
    expect(actionTypeOf(T, null)).toBeNull();
  });

  it('the view and the event payload', () => {
    const row = { id: 'a', tenant_id: T, name: 'Send Email', description: null, action_type_id: actionDefaultId(T, 'type', 'EMAIL'), status: true, is_deleted: false, version: 1 };
    expect(toActionTemplateView(row)).toMatchObject({ id: 'a', tenantId: T, name: 'Send Email', status: true, type: { type: 'EMAIL' } });
    expect(toActionTemplatePayload(row)).toEqual({ id: 'a', name: 'Send Email', description: null, actionTypeId: row.action_type_id, status: true, isDeleted: false, version: 1 });
  });

  it('list: defaults and bounds', async () => {
    const problems = async (plain: object) => (await validate(plainToInstance(ListActionTemplatesQuery, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property);
    expect(plainToInstance(ListActionTemplatesQuery, {})).toMatchObject({ page: 1, limit: 10, sortBy: 'name' });
    expect(await problems({ sortBy: 'status' })).toEqual(['sortBy']);
    expect(await problems({ limit: '101' })).toEqual(['limit']);
  });
});
