/**
 * What every change of actions shares, wherever it is made (the service, and what action-refs.ts
 * does for the consumers and the overdue sweep): reading the changed actions' views once,
 * publishing their events, the set-based statements that write assignees, and the check of the
 * records a change names.
 */
import { ACTION_SUBJECTS, FieldError, notFound } from '@ddm/contracts';
import { Queryable, Tx, sql } from '@ddm/platform';
import { statusIdOf } from '../core/configuration.rules';
import { ActionRow, CONFIG_REFS_SQL, actionViews } from './action.sql';
import { StoredActionView, toActionPayload } from './dto/action.response';

export type ActionSubject = (typeof ACTION_SUBJECTS)[keyof typeof ACTION_SUBJECTS];

/** The stored views of the tenant's actions named, in that order (one statement). */
export async function readViews(q: Queryable, tenantId: string, ids: readonly string[]): Promise<StoredActionView[]> {
  if (!ids.length) return [];
  return (await q.query<ActionRow>(actionViews(tenantId, ids))).map((r) => r.view);
}

/** Publishes `subject` for each view (one statement), by `by` (null: the system). */
export async function publishActions(tx: Tx, tenantId: string, subject: Exclude<ActionSubject, 'evt.actions.action.assigned'>, views: readonly StoredActionView[], by: string | null): Promise<void> {
  await tx.publishMany(subject, views.map((v) => ({ tenantId, action: toActionPayload(v), changedBy: by })));
}

/** Publishes `assigned` for each action that gained people (only those are told). */
export async function publishAssigned(tx: Tx, tenantId: string, views: readonly StoredActionView[], added: ReadonlyMap<string, string[]>, by: string | null): Promise<void> {
  const events = views
    .filter((v) => added.get(v.id)?.length)
    .map((v) => ({ tenantId, action: toActionPayload(v), changedBy: by, newAssigneeIds: added.get(v.id)! }));
  await tx.publishMany(ACTION_SUBJECTS.assigned, events);
}

/**
 * Makes each action named assigned to exactly `assigneeIds`: the others leave, those kept keep their
 * status and dates, the new ones start at To Do. Two statements for any number of actions; answers
 * who was added to which action.
 */
export async function setAssignees(tx: Tx, tenantId: string, actionIds: readonly string[], assigneeIds: readonly string[]): Promise<Map<string, string[]>> {
  await tx.query(sql`DELETE FROM actions.action_assignees WHERE tenant_id = ${tenantId} AND action_id = ANY(${actionIds}::uuid[]) AND NOT (assignee_id = ANY(${assigneeIds}::uuid[]))`);
  // Those kept take their place in the order now asked.
  await tx.query(sql`UPDATE actions.action_assignees aa SET position = u.n FROM unnest(${assigneeIds}::uuid[]) WITH ORDINALITY AS u(id, n)
    WHERE aa.tenant_id = ${tenantId} AND aa.action_id = ANY(${actionIds}::uuid[]) AND aa.assignee_id = u.id AND aa.position <> u.n`);
  return addAssignees(tx, tenantId, actionIds, assigneeIds);
}

/** Adds the people to each action named (those already there stay as they are); answers who was added to which action. */
export async function addAssignees(tx: Tx, tenantId: string, actionIds: readonly string[], assigneeIds: readonly string[]): Promise<Map<string, string[]>> {
  const added = new Map<string, string[]>();
  if (!actionIds.length || !assigneeIds.length) return added;
  const rows = await tx.query<{ action_id: string; assignee_id: string }>(sql`
    INSERT INTO actions.action_assignees (id, tenant_id, action_id, assignee_id, action_status_id, position)
    SELECT gen_random_uuid(), ${tenantId}, x.action_id, u.id, ${statusIdOf(tenantId, 'TODO')}, u.n
      FROM unnest(${actionIds}::uuid[]) AS x(action_id) CROSS JOIN unnest(${assigneeIds}::uuid[]) WITH ORDINALITY AS u(id, n)
    ON CONFLICT (action_id, assignee_id) DO NOTHING
    RETURNING action_id, assignee_id`);
  for (const r of rows) added.set(r.action_id, [...(added.get(r.action_id) ?? []), r.assignee_id]);
  return added;
}

/** What a change names of the tenant's configuration and of other areas' records. */
export interface ActionRefs {
  actionStatusId?: string | null;
  actionPriorityId?: string | null;
  actionTypeId?: string | null;
  actionTemplateId?: string | null;
  decisionId?: string | null;
  delegationId?: string | null;
  documentId?: string | null;
  ownerId?: string | null;
  assigneeIds?: readonly string[];
}

export interface KnownRefs {
  status?: { id: string; key: string };
  priority?: { id: string; key: string };
}

/**
 * Checks in one statement that every record named is the tenant's: its statuses, priorities, types,
 * and (in this service's projections) templates, decisions, delegations, documents and members.
 * A 404 naming each one that is not, with the field that carried it.
 */
export async function requireRefs(q: Queryable, tenantId: string, refs: ActionRefs): Promise<KnownRefs> {
  const lower = (id: string | null | undefined) => id?.toLowerCase() ?? null;
  const users = [...new Set([refs.ownerId, ...(refs.assigneeIds ?? [])].filter((x): x is string => !!x).map((x) => x.toLowerCase()))];
  const rows = await q.query<{ kind: string; id: string; key: string | null }>(CONFIG_REFS_SQL, [
    tenantId,
    lower(refs.actionStatusId),
    lower(refs.actionPriorityId),
    lower(refs.actionTypeId),
    lower(refs.actionTemplateId),
    lower(refs.decisionId),
    lower(refs.delegationId),
    lower(refs.documentId),
    users,
  ]);
  const has = (kind: string, id: string) => rows.some((r) => r.kind === kind && r.id === id.toLowerCase());
  const errors: FieldError[] = [];
  const check = (field: keyof ActionRefs, kind: string, what: string) => {
    const id = refs[field] as string | null | undefined;
    if (id && !has(kind, id)) errors.push({ field, message: `${what} ${id.toLowerCase()} not found` });
  };
  check('actionStatusId', 'status', 'Action status');
  check('actionPriorityId', 'priority', 'Action priority');
  check('actionTypeId', 'type', 'Action type');
  check('actionTemplateId', 'template', 'Action template');
  check('decisionId', 'decision', 'Decision');
  check('delegationId', 'delegation', 'Delegation');
  check('documentId', 'document', 'Document');
  if (refs.ownerId && !has('user', refs.ownerId)) errors.push({ field: 'ownerId', message: `User ${refs.ownerId.toLowerCase()} is not a member of the tenant` });
  (refs.assigneeIds ?? []).forEach((id, i) => {
    if (!has('user', id)) errors.push({ field: `assigneeIds.${i}`, message: `User ${id.toLowerCase()} is not a member of the tenant` });
  });
  if (errors.length) throw notFound(errors.length === 1 ? errors[0].message : `Records not found: ${errors.map((e) => e.message).join('; ')}`, errors);
  const one = (kind: string) => {
    const r = rows.find((x) => x.kind === kind);
    return r ? { id: r.id, key: r.key ?? '' } : undefined;
  };
  return { status: one('status'), priority: one('priority') };
}
