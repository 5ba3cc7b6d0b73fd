import { randomUUID } from 'node:crypto';
import { DelegationEvent, DelegationRoleEvent } from '@ddm/contracts';
import { delegationEvent, publishEvent, startHarness, until } from '@ddm/testing';
import { v7 as uuidv7 } from 'uuid';
import { matrixApp, MatrixHarness } from './fixtures/matrix-app';
import { announceDecision, announceDecisionRole, announcePosition } from './fixtures/announcements';

describe('role matrix: the grid shows only the delegations holding the chosen decision roles (e2e, real Postgres and NATS)', () => {
  let h: MatrixHarness;
  let cfo: string;
  const decision = randomUUID();
  const informed = randomUUID();
  const consulted = randomUUID();
  // Assignments in the order the decision area makes them (uuidv7: later ones compare greater).
  const a1 = uuidv7();
  const a2 = uuidv7();
  const a3 = uuidv7();
  let byRoleIds: Record<string, any>;
  let byAuthorityRoles: Record<string, any>;
  let plain: Record<string, any>;
  let withInformed: DelegationEvent;
  let withConsulted: DelegationEvent;
  let fromOldProducer: DelegationEvent;
  let beforeAssignments: string;

  const grid = async (id: string, qs = '') => {
    const res = await h.svc.http.get(`/matrix/v1/matrix/${id}/grid${qs}`, { token: h.tokens.admin });
    expect(res.status).toBe(200);
    return res.body.data as { rows: { decisionId: string; cells: { columnId: string; delegations: { delegationDisplayId: string }[] }[] }[] };
  };
  /** The display ids in the CFO's cell of the decision. */
  const shown = async (id: string, qs = '') =>
    ((await grid(id, qs)).rows.find((r) => r.decisionId === decision)?.cells.find((c) => c.columnId === cfo)?.delegations ?? []).map((e) => e.delegationDisplayId).sort();
  const roleAssigned = (d: DelegationEvent, roleId: string, roleStatus: string, assignmentId: string): DelegationRoleEvent => ({
    tenantId: h.demo.id,
    assignmentId,
    delegationId: d.delegationId,
    delegationDisplayId: d.delegationDisplayId!,
    decisionId: decision,
    roleId,
    roleName: roleId === informed ? 'Informed' : 'Consulted',
    roleStatus,
    designeeUserIds: [],
    issuerUserId: null,
  });
  const roleAt = (delegationId: string, roleId: string, assignmentId: string) => async () =>
    (await h.db.query(`SELECT 1 FROM matrix.delegation_role_projection WHERE delegation_id = $1 AND role_id = $2 AND assignment_id = $3`, [delegationId, roleId, assignmentId])).length > 0;
  const handled = (n: number) => async () => (await h.db.query(`SELECT 1 FROM matrix.processed_messages WHERE consumer = 'matrix-delegation-roles'`)).length >= n;
  const historyRows = async (delegationId: string) => (await h.db.query(`SELECT 1 FROM matrix.delegation_history WHERE delegation_id = $1`, [delegationId])).length;

  beforeAll(async () => {
    h = await startHarness(matrixApp);
    cfo = await announcePosition(h, h.demo.id, 'CFO');
    // The roles a matrix names must be the tenant's (the settings area's decision roles).
    await announceDecisionRole(h, h.demo.id, 'Informed', informed);
    await announceDecisionRole(h, h.demo.id, 'Consulted', consulted);
    await announceDecision(h, h.demo.id, { id: decision, decisionDisplayId: '20000', name: 'Approve hires' });
    const create = async (body: object) => {
      const res = await h.svc.http.post('/matrix/v1/matrix', { token: h.tokens.admin, body });
      expect(res.status).toBe(200);
      return res.body.data;
    };
    byRoleIds = await create({ matrixName: 'Informed', roleMatrix: true, positionIds: [cfo], matrixDelegation: { delegationRole: true, roleIds: [informed] } });
    byAuthorityRoles = await create({ matrixName: 'Consulted', roleMatrix: true, positionIds: [cfo], matrixAuthorityRoles: [{ authorityRoleId: consulted, isEnabled: true }, { authorityRoleId: informed, isEnabled: false }] });
    plain = await create({ matrixName: 'Everyone', positionIds: [cfo], matrixDelegation: { roleIds: [informed] } }); // not a role matrix: roleIds do not filter
    const issued = (displayId: string, roles?: DelegationEvent['roles']) =>
      delegationEvent(h.demo.id, { delegationId: randomUUID(), decisionId: decision, recipientType: 'POSITION_ONLY', recipientPositionId: cfo, status: 'ISSUED', version: 1, delegationDisplayId: displayId, ...(roles ? { roles } : {}) });
    // Roles set while drafting reach the matrix with the issuance (assignmentId null: set before assignments were recorded).
    withInformed = issued('30001', [{ roleId: informed, roleStatus: 'ACTIVE', assignmentId: a1 }, { roleId: consulted, roleStatus: 'INACTIVE', assignmentId: null }]);
    withConsulted = issued('30002', [{ roleId: consulted, roleStatus: 'ACTIVE', assignmentId: null }]);
    fromOldProducer = issued('30003'); // published before the events carried roles
  });
  afterAll(() => h?.close());

  const applied = (d: DelegationEvent, version: number) => async () =>
    (await h.db.query(`SELECT 1 FROM matrix.delegation_projection WHERE delegation_id = $1 AND version >= $2`, [d.delegationId, version])).length > 0;

  it('a role matrix shows only the delegations holding one of its roles (roleIds, or the enabled matrixAuthorityRoles); another matrix shows all', async () => {
    for (const d of [withInformed, withConsulted, fromOldProducer]) await h.publish('evt.decision.delegation.issued', d, applied(d, 1), `${d.delegationDisplayId} issued`);
    expect(await shown(byRoleIds.id)).toEqual(['30001']);
    expect(await shown(byAuthorityRoles.id)).toEqual(['30002']);
    expect(await shown(plain.id)).toEqual(['30001', '30002', '30003']);
    // The export shares the grid's filter.
    const csv = await fetch(`${h.svc.url}/matrix/v1/matrix/${byRoleIds.id}/export?format=csv`, { headers: { authorization: `Bearer ${h.tokens.admin}` } });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text).toContain('#30001');
    expect(text).not.toMatch(/#3000[23]/);
    beforeAssignments = new Date().toISOString();
    await until(async () => Date.now() > Date.parse(beforeAssignments) + 5, 'the clock to move on');
  });

  it('a later role-assigned changes it: a role given to one delegation, taken (INACTIVE) from another', async () => {
    await h.publish('evt.decision.delegation.role-assigned', roleAssigned(fromOldProducer, informed, 'ACTIVE', a2), roleAt(fromOldProducer.delegationId, informed, a2), 'informed given to 30003');
    expect(await shown(byRoleIds.id)).toEqual(['30001', '30003']);
    await h.publish('evt.decision.delegation.role-assigned', roleAssigned(withInformed, informed, 'INACTIVE', a3), roleAt(withInformed.delegationId, informed, a3), 'informed taken from 30001');
    expect(await shown(byRoleIds.id)).toEqual(['30003']);
    expect(await shown(byAuthorityRoles.id)).toEqual(['30002']);
    // As of before the assignments, the roles held then.
    expect(await shown(byRoleIds.id, `?at=${encodeURIComponent(beforeAssignments)}`)).toEqual(['30001']);
  });

  it('a duplicate or an older message changes nothing: role-assigned again, an older assignment, a newer delegation event carrying an older role state', async () => {
    const history = await historyRows(withInformed.delegationId);
    // The same assignment redelivered under another message id, then an older assignment.
    await publishEvent(h.svc, 'evt.decision.delegation.role-assigned', roleAssigned(withInformed, informed, 'INACTIVE', a3));
    await publishEvent(h.svc, 'evt.decision.delegation.role-assigned', roleAssigned(withInformed, informed, 'ACTIVE', a1));
    await until(handled(4), 'the duplicate and the older assignment handled');
    expect(await historyRows(withInformed.delegationId)).toBe(history);
    expect(await shown(byRoleIds.id)).toEqual(['30003']);
    // A newer version of the delegation whose roles stand at an older assignment (published before a3): the role stays as a3 left it.
    await h.publish('evt.decision.delegation.updated', { ...withInformed, version: 2, pathways: ['Functional'] }, applied(withInformed, 2), '30001 updated');
    expect(await shown(byRoleIds.id)).toEqual(['30003']);
    expect((await h.db.query<{ role_status: string }>(`SELECT role_status FROM matrix.delegation_role_projection WHERE delegation_id = $1 AND role_id = $2`, [withInformed.delegationId, informed]))[0].role_status).toBe('INACTIVE');
    // The same delegation event delivered twice applies once.
    const after = await historyRows(withInformed.delegationId);
    await publishEvent(h.svc, 'evt.decision.delegation.updated', { ...withInformed, version: 2, pathways: ['Functional'] });
    await until(async () => (await h.db.query(`SELECT 1 FROM matrix.processed_messages WHERE consumer = 'matrix-decision-delegations'`)).length >= 5, 'the duplicate delegation event handled');
    expect(await historyRows(withInformed.delegationId)).toBe(after);
  });
});
