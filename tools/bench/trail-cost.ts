/**
 * What the audit trail costs a bulk write (issue 35's "on <= 2x off"): one set-based INSERT of
 * `rows` delegations and one UPDATE of all of them (status, version, time: a revocation's shape),
 * with the trail's triggers on, and off (disabled inside the measured transaction). Each round runs
 * both, in turns (on first, then off first), in a transaction rolled back at the end, the table
 * and the trail vacuumed before each so no run pays for another's dead rows. Used by the authority
 * benchmark (before its seed, or alone with --trail-only).
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { log, round2 } from './lib';

export const TRAIL_TARGET = 2;

export interface TrailCost {
  rows: number;
  /** Milliseconds of each round, per statement and mode. */
  runs: { insert: { on: number; off: number }; update: { on: number; off: number } }[];
  insert: { on: number; off: number; ratio: number };
  update: { on: number; off: number; ratio: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(db: Client, text: string, params: unknown[]): Promise<number> {
  const started = process.hrtime.bigint();
  await db.query(text, params);
  return Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
}

/** One bulk insert and update in a transaction rolled back; the trail on or off. */
async function once(db: Client, tenantId: string, decisionId: string, rows: number, trail: boolean): Promise<{ insert: number; update: number }> {
  await db.query(`VACUUM decision.delegations`);
  await db.query(`VACUUM decision.audit_log`);
  await db.query('BEGIN');
  try {
    await db.query(`SELECT set_config('app.tenant_id', $1, true), set_config('app.actor_id', $2, true), set_config('app.request_id', 'bench-trail', true)`, [
      tenantId,
      randomUUID(),
    ]);
    if (!trail) for (const t of ['audit_insert', 'audit_update']) await db.query(`ALTER TABLE decision.delegations DISABLE TRIGGER ${t}`);
    const insert = await timed(
      db,
      `INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, depth, issuer_type, issuer_user_id, recipient_type, recipient_user_id, status,
              effective_date, issued_date, is_no_expiration, delegation_pathway, group_ids, delegation_groups, delegation_authorities, created_by, updated_by)
       SELECT gen_random_uuid(), $1, (5000000 + n)::text, $2, 0, 'USER', $3, 'USER', gen_random_uuid(), 'ISSUED',
              now() - interval '1 day', now() - interval '1 day', true, '{DIRECT_LINE}', ARRAY[gen_random_uuid()],
              jsonb_build_array(jsonb_build_object('groupId', gen_random_uuid(), 'groupName', 'Group ' || n)),
              jsonb_build_array(jsonb_build_object('authorityTypeId', gen_random_uuid(), 'operator', '<=', 'value', n, 'unit', 'USD')), $3, $3
         FROM generate_series(1, $4::int) n`,
      [tenantId, decisionId, randomUUID(), rows],
    );
    const update = await timed(
      db,
      `UPDATE decision.delegations SET status = 'REVOKED', version = version + 1, updated_on = now(), updated_by = $2
        WHERE tenant_id = $1 AND decision_id = $3`,
      [tenantId, randomUUID(), decisionId],
    );
    return { insert, update };
  } finally {
    await db.query('ROLLBACK');
  }
}

export async function measureTrailCost(db: Client, rows: number, rounds = 3): Promise<TrailCost> {
  const tenantId = randomUUID();
  const decisionId = randomUUID();
  await db.query(
    `INSERT INTO decision.decisions (id, tenant_id, decision_display_id, name, description, status, delegable, delegation_pathway, version, created_on, updated_on)
     VALUES ($1, $2, '1', 'Trail cost', '', 'ACTIVE', true, '{DIRECT_LINE}', 1, now(), now())`,
    [decisionId, tenantId],
  );
  const runs: TrailCost['runs'] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    const got: Record<string, { insert: number; update: number }> = {};
    for (const trail of order) got[trail ? 'on' : 'off'] = await once(db, tenantId, decisionId, rows, trail);
    runs.push({ insert: { on: got.on.insert, off: got.off.insert }, update: { on: got.on.update, off: got.off.update } });
    log(`trail round ${round + 1}: insert ${got.on.insert} ms on, ${got.off.insert} ms off; update ${got.on.update} ms on, ${got.off.update} ms off`);
  }
  // The ratio of each round (on and off run back to back, so they share the machine's state), the median of those.
  const of = (kind: 'insert' | 'update') => ({
    on: median(runs.map((r) => r[kind].on)),
    off: median(runs.map((r) => r[kind].off)),
    ratio: round2(median(runs.map((r) => r[kind].on / r[kind].off))),
  });
  return { rows, runs, insert: of('insert'), update: of('update') };
}

export function trailLines(t: TrailCost): string[] {
  return [
    `audit trail on a bulk write of ${t.rows.toLocaleString('en')} delegations (medians of ${t.runs.length} rounds; the ratio: of each round's): insert ${t.insert.on} ms on, ${t.insert.off} ms off (${t.insert.ratio}x); ` +
      `update ${t.update.on} ms on, ${t.update.off} ms off (${t.update.ratio}x) (target <= ${TRAIL_TARGET}x)`,
  ];
}
