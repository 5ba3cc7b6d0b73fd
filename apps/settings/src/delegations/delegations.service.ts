import { Injectable, Logger } from '@nestjs/common';
import { DELEGATION_ISSUER_TYPES, DELEGATION_RECIPIENT_TYPES, DelegationEvent, isUuid } from '@ddm/contracts';
import { EntityManager } from 'typeorm';

/** Most pathways and groups one delegation keeps (defensive bounds on another area's input). */
export const MAX_DELEGATION_PATHWAYS = 50;
export const MAX_DELEGATION_GROUPS = 500;
const MAX_PATHWAY_LENGTH = 100;

export type DelegationVerb = 'issued' | 'updated' | 'revoked';

/** The projection row an event asks for, or why it is ignored. */
export type DelegationChange =
  | {
      verb: DelegationVerb;
      delegationId: string;
      tenantId: string;
      decisionId: string;
      issuerType: string;
      issuerUserId: string | null;
      issuerPositionId: string | null;
      recipientType: string;
      recipientUserId: string | null;
      recipientPositionId: string | null;
      pathways: string[];
      groupIds: string[];
      /** The event's version (a non-negative integer), or null when it has none. */
      version: number | null;
    }
  | { ignored: string };

const uuidOrNull = (v: unknown): string | null => (isUuid(v) ? v.toLowerCase() : null);

/** Reads an event defensively: ids must be UUIDs (or null), types known, arrays bounded and clean. Pure. */
export function delegationChange(subject: string, payload: unknown): DelegationChange {
  const verb = subject.split('.').pop();
  if (verb !== 'issued' && verb !== 'updated' && verb !== 'revoked') return { ignored: `unknown verb in ${subject}` };
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return { ignored: 'payload is not an object' };
  const e = payload as { [K in keyof DelegationEvent]?: unknown };
  for (const f of ['tenantId', 'delegationId', 'decisionId'] as const) if (!isUuid(e[f])) return { ignored: `${f} is not a UUID` };
  if (!(DELEGATION_ISSUER_TYPES as readonly unknown[]).includes(e.issuerType)) return { ignored: 'unknown issuerType' };
  if (!(DELEGATION_RECIPIENT_TYPES as readonly unknown[]).includes(e.recipientType)) return { ignored: 'unknown recipientType' };
  const pathways = Array.isArray(e.pathways)
    ? [...new Set(e.pathways.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim().slice(0, MAX_PATHWAY_LENGTH)))].slice(
        0,
        MAX_DELEGATION_PATHWAYS,
      )
    : [];
  const groupIds = Array.isArray(e.groupIds) ? [...new Set(e.groupIds.filter(isUuid).map((g) => g.toLowerCase()))].slice(0, MAX_DELEGATION_GROUPS) : [];
  return {
    verb,
    tenantId: (e.tenantId as string).toLowerCase(),
    delegationId: (e.delegationId as string).toLowerCase(),
    decisionId: (e.decisionId as string).toLowerCase(),
    issuerType: e.issuerType as string,
    issuerUserId: uuidOrNull(e.issuerUserId),
    issuerPositionId: uuidOrNull(e.issuerPositionId),
    recipientType: e.recipientType as string,
    recipientUserId: uuidOrNull(e.recipientUserId),
    recipientPositionId: uuidOrNull(e.recipientPositionId),
    pathways,
    groupIds,
    version: typeof e.version === 'number' && Number.isSafeInteger(e.version) && e.version >= 0 ? e.version : null,
  };
}

/**
 * Writes settings.delegation_projection from the decision area's delegation events. Runs in the
 * consumer's transaction that records the message as processed, so each message applies once.
 * issued/updated upsert by delegation id; revoked sets revoked_on, and a revoked delegation stays
 * revoked (a later issued/updated refreshes its fields but never clears revoked_on). A row never
 * moves between tenants: an event naming another tenant's delegation id changes nothing.
 */
@Injectable()
export class DelegationsService {
  private readonly log = new Logger('DelegationProjection');

  async apply(m: EntityManager, subject: string, event: DelegationEvent): Promise<void> {
    const c = delegationChange(subject, event);
    if ('ignored' in c) {
      this.log.warn(`ignored ${subject}: ${c.ignored}`);
      return;
    }
    await m.query(
      `INSERT INTO settings.delegation_projection
              (delegation_id, tenant_id, decision_id, issuer_type, issuer_user_id, issuer_position_id,
               recipient_type, recipient_user_id, recipient_position_id, pathways, group_ids, revoked_on, version, updated_on)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text[], $11::uuid[], CASE WHEN $12 THEN now() END, $13, now())
       ON CONFLICT (delegation_id) DO UPDATE SET
              decision_id = EXCLUDED.decision_id, issuer_type = EXCLUDED.issuer_type, issuer_user_id = EXCLUDED.issuer_user_id,
              issuer_position_id = EXCLUDED.issuer_position_id, recipient_type = EXCLUDED.recipient_type,
              recipient_user_id = EXCLUDED.recipient_user_id, recipient_position_id = EXCLUDED.recipient_position_id,
              pathways = EXCLUDED.pathways, group_ids = EXCLUDED.group_ids,
              revoked_on = coalesce(delegation_projection.revoked_on, EXCLUDED.revoked_on),
              version = GREATEST(EXCLUDED.version, delegation_projection.version), updated_on = now()
        WHERE delegation_projection.tenant_id = EXCLUDED.tenant_id
          AND (EXCLUDED.version IS NULL OR delegation_projection.version IS NULL OR EXCLUDED.version > delegation_projection.version
               -- a revocation always counts, whatever its version
               OR EXCLUDED.revoked_on IS NOT NULL)`,
      [
        c.delegationId,
        c.tenantId,
        c.decisionId,
        c.issuerType,
        c.issuerUserId,
        c.issuerPositionId,
        c.recipientType,
        c.recipientUserId,
        c.recipientPositionId,
        c.pathways,
        c.groupIds,
        c.verb === 'revoked',
        c.version,
      ],
    );
  }
}
