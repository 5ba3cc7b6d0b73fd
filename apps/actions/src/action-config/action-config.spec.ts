import { actionDefaultId } from '@ddm/contracts';
import { priorityRank, statusRank } from '../core/configuration.rules';
import { DEFAULT_PRIORITIES, DEFAULT_STATUSES, defaultConfiguration } from './action-config.rules';
import { toPriorityView, toStatusView, toTypeView } from './dto/action-config.response';

const T = '0190f5c4-0000-7000-8000-0000000000aa';
const U1 = '0190f5c4-0000-7000-8000-000000000001';

describe('action configuration rules', () => {
  it("a tenant's defaults: five statuses, four priorities, five types, with ids derived from the tenant", () => {
    const c = defaultConfiguration(T);
    expect(c.statuses.map((s) => s.name)).toEqual(['To Do', 'In Progress', 'Completed', 'Canceled', 'Overdue']);
    expect(c.priorities.map((p) => `${p.name}/${p.colorName}`)).toEqual(['Low/green', 'Medium/blue', 'High/orange', 'Critical/red']);
    expect(c.types.map((t) => t.name)).toEqual(['Meeting', 'Email', 'Review', 'Approval', 'Task']);
    expect(c.statuses[0].id).toBe(actionDefaultId(T, 'status', 'TODO'));
    expect(defaultConfiguration(U1).statuses[0].id).not.toBe(c.statuses[0].id);
    expect(actionDefaultId(T.toUpperCase(), 'type', 'TASK')).toBe(actionDefaultId(T, 'type', 'TASK'));
    expect(statusRank('TODO')).toBe(1);
    expect(statusRank('OVERDUE')).toBe(5);
    expect(priorityRank('LOW')).toBeLessThan(priorityRank('CRITICAL'));
  });

  it("the sorts' ranks are the defaults' positions", () => {
    const c = defaultConfiguration(T);
    expect(c.statuses.map((s) => statusRank(s.key))).toEqual(c.statuses.map((s) => s.position));
    expect(c.priorities.map((p) => priorityRank(p.key))).toEqual(c.priorities.map((p) => p.position));
    expect(DEFAULT_STATUSES).toHaveLength(5);
    expect(DEFAULT_PRIORITIES).toHaveLength(4);
    expect(c.types.map((t) => t.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('the views of a status, a priority and a type', () => {
    expect(toStatusView({ id: 's1', tenant_id: T, status_key: 'TODO', action_status_name: 'To Do', is_enabled: true })).toEqual({
      id: 's1',
      tenantId: T,
      actionStatusName: 'To Do',
      statusKey: 'TODO',
      isEnabled: true,
    });
    expect(toPriorityView({ id: 'p1', tenant_id: T, priority_key: 'HIGH', action_priority_name: 'High', color_name: 'orange', is_enabled: false })).toEqual({
      id: 'p1',
      tenantId: T,
      actionPriorityName: 'High',
      colorName: 'orange',
      isEnabled: false,
    });
    expect(toTypeView({ id: 't1', tenant_id: T, type: 'TASK', name: 'Task', type_icon: null, status: true, is_custom: false })).toEqual({
      id: 't1',
      tenantId: T,
      type: 'TASK',
      name: 'Task',
      typeIcon: null,
      status: true,
      isCustom: false,
    });
  });
});
