/**
 * The rules of resolving a caller that need no database: who is a member of the tenant asked, when
 * a first request accepts an invitation, and the answer to auth.caller.resolve. Pure; unit-tested
 * in callers.spec.ts.
 */
import { CallerResolveReply } from '@ddm/contracts';

/** What the lookup finds of a token's user in the tenant named (else the user's active tenant). */
export interface CallerRow {
  id: string;
  email: string;
  name: string | null;
  active_tenant_id: string | null;
  tenant_id: string | null;
  status: string | null;
  is_deleted: boolean | null;
  tenant_status: string | null;
  role_ids: string[];
  keys: string[];
}

export const UNKNOWN_IDENTITY =
  'No user is registered for this identity: sign in with the email address your invitation was sent to, or ask an administrator to invite you';

/** A member is an active, not deleted membership of an active tenant. */
export function isMember(row: Pick<CallerRow, 'status' | 'is_deleted' | 'tenant_status'>): boolean {
  return row.status === 'ACTIVE' && row.is_deleted === false && row.tenant_status === 'ACTIVE';
}

/** A user's first request in a tenant accepts their invitation there: an invited, not deleted membership of an active tenant. */
export function acceptsInvitation(row: Pick<CallerRow, 'tenant_id' | 'status' | 'is_deleted' | 'tenant_status'>): boolean {
  return !!row.tenant_id && row.status === 'INVITED' && row.is_deleted === false && row.tenant_status === 'ACTIVE';
}

/** The answer to auth.caller.resolve: unknown identity, or the user with their roles and keys (only a member holds any). */
export function callerReply(row: CallerRow | undefined): CallerResolveReply {
  if (!row) return { found: false, reason: UNKNOWN_IDENTITY };
  const member = isMember(row);
  return {
    found: true,
    userId: row.id,
    email: row.email,
    name: row.name ?? row.email,
    tenantId: row.tenant_id,
    member,
    roleIds: member ? row.role_ids : [],
    keys: member ? row.keys : [],
  };
}
