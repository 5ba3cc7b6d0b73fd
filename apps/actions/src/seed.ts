import { INestApplicationContext } from '@nestjs/common';
import { ALL_PERMISSION_KEYS, Caller } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { priorityIdOf, statusIdOf } from './core/configuration.rules';
import { ActionsService } from './actions/actions.service';
import { OverdueSweep } from './sweeps/overdue.sweep';

/** Ten kinds of work, four rounds each: Demo Co's 40 actions. */
const TASKS = [
  'Prepare board pack', 'Review supplier contracts', 'Update delegation register', 'Collect expense approvals', 'Schedule audit committee',
  'Renew office lease', 'Check signatory list', 'Draft hiring plan', 'Send pricing update', 'Reconcile treasury limits',
];
const ROUNDS = ['Q1', 'Q2', 'Q3', 'Q4'];
const PEOPLE = ['admin', 'manager', 'user', 'auditor'] as const;
const PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;

export interface ActionSeedResult {
  actions: number;
}

/** How long the seed waits for the users and decisions actions name to arrive through the events. */
const PROJECTIONS_TIMEOUT_MS = 60_000;
const DAY = 86_400_000;

/**
 * Demo Co's actions (other tenants get none): 40 over its users, owned and assigned around, a few
 * past their due date (moved to Overdue by one sweep), every third linked to a decision. Safe to run
 * again: an action already there by name is kept. Everything goes through the service (events as
 * for any change); it first waits for the projections of the tenant's users (and `decisions` decisions).
 */
export async function seedActions(
  app: INestApplicationContext,
  tenant: { id: string; name: string; users: { id: string; email: string; role: string }[] },
  expected: { decisions: number },
): Promise<ActionSeedResult> {
  const db = app.get(Db);
  if (tenant.name !== 'Demo Co') return countOf(db, tenant.id);
  await waitForProjections(db, tenant.id, { users: tenant.users.length, decisions: expected.decisions });
  const userOf = (name: string) => tenant.users.find((u) => u.email === `${name}@demo.test`)!;
  const admin = userOf('admin');
  const caller: Caller = {
    userId: admin.id,
    tenantId: tenant.id,
    email: admin.email,
    name: 'Seed',
    roleIds: [],
    keys: new Set(ALL_PERMISSION_KEYS),
    claims: { sub: admin.id, iss: 'seed', aud: 'seed', exp: 0 },
  };
  const decisions = (await db.query<{ id: string }>(`SELECT id FROM actions.decision_projection WHERE tenant_id = $1 AND NOT is_deleted ORDER BY decision_display_id::bigint`, [tenant.id])).map(
    (r) => r.id,
  );
  const existing = new Set(
    (await db.query<{ name: string }>(`SELECT action_name AS name FROM actions.actions WHERE tenant_id = $1 AND NOT is_deleted`, [tenant.id])).map((r) => r.name),
  );
  const actions = app.get(ActionsService);
  const now = Date.now();
  let n = 0;
  for (const round of ROUNDS) {
    for (const task of TASKS) {
      const i = n++;
      const name = `${task} (${round})`;
      if (existing.has(name)) continue;
      // Every seventh is past due; the rest fall due over the coming weeks; every fifth is done.
      const overdue = i % 7 === 3;
      const done = !overdue && i % 5 === 4;
      await actions.create(caller, {
        actionName: name,
        description: `${task} for ${round}.`,
        ownerId: userOf(PEOPLE[i % PEOPLE.length]).id,
        assigneeIds: [userOf(PEOPLE[(i + 1) % PEOPLE.length]).id, ...(i % 3 === 0 ? [userOf(PEOPLE[(i + 2) % PEOPLE.length]).id] : [])],
        actionPriorityId: priorityIdOf(tenant.id, PRIORITIES[i % PRIORITIES.length]),
        actionStatusId: statusIdOf(tenant.id, done ? 'COMPLETED' : i % 4 === 1 ? 'IN_PROGRESS' : 'TODO'),
        dueDate: new Date(overdue ? now - (1 + (i % 10)) * DAY : now + (3 + i) * DAY).toISOString(),
        decisionId: i % 3 === 0 && decisions.length ? decisions[i % decisions.length] : undefined,
      });
    }
  }
  await app.get(OverdueSweep).sweep();
  return countOf(db, tenant.id);
}

async function waitForProjections(db: Db, tenantId: string, expected: { users: number; decisions: number }): Promise<void> {
  const deadline = Date.now() + PROJECTIONS_TIMEOUT_MS;
  for (;;) {
    const [have] = await db.query<{ users: number; decisions: number }>(
      `SELECT (SELECT count(*)::int FROM actions.user_projection WHERE tenant_id = $1 AND status <> 'DELETED') AS users,
              (SELECT count(*)::int FROM actions.decision_projection WHERE tenant_id = $1 AND NOT is_deleted) AS decisions`,
      [tenantId],
    );
    if (have.users >= expected.users && have.decisions >= expected.decisions) return;
    if (Date.now() > deadline) {
      throw new Error(`actions seed: the projections still lack records after ${PROJECTIONS_TIMEOUT_MS} ms (users ${have.users}/${expected.users}, decisions ${have.decisions}/${expected.decisions})`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function countOf(db: Db, tenantId: string): Promise<ActionSeedResult> {
  // The seed's own (manual) actions; system actions come from other areas' events (a document under review opens one).
  const [row] = await db.query<ActionSeedResult>(`SELECT count(*)::int AS actions FROM actions.actions WHERE tenant_id = $1 AND NOT is_deleted AND NOT is_system_generated`, [tenantId]);
  return row;
}
