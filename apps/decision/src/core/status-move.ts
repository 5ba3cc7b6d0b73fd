/**
 * Writing a status move (as `statusMove` answered it) of delegations, wherever it is made: a
 * request's move (DelegationsService.move) and the attestation sweep suspending what was not
 * attested in time. Revoking, which takes a whole subtree, is written by the service itself.
 */
import { DelegationNoticeSubject } from '@ddm/contracts';
import { Tx } from '@ddm/platform';
import { recordDelegationChange } from './delegation-changes';
import { moveStatus } from './delegation.sql';
import { DelegationStateSubject } from './delegation.status';
import { DelegationAction, DelegationStatus, PendingStage } from './delegation.types';
import { revalidate } from './invalidation';

/**
 * Moves the tenant's delegations named (each one allowed to make the move) to `moved` in one
 * statement: status, stage, issued and accepted dates, version; then a revision of each, the state
 * `subject` and the `notice`. A suspended delegation makes its children invalid (Parent), a resumed
 * one valid again: their subtrees are checked again. `by` null: the system (a sweep); the
 * delegations keep their last updatedBy then.
 */
export async function writeStatusMove(
  tx: Tx,
  tenantId: string,
  ids: readonly string[],
  action: Exclude<DelegationAction, 'revoke'>,
  moved: { to: DelegationStatus; stage: PendingStage | null },
  by: string | null,
  subject: DelegationStateSubject,
  notice?: DelegationNoticeSubject,
): Promise<void> {
  if (!ids.length) return;
  await moveStatus(tx, tenantId, ids, moved.to, moved.stage, by);
  await recordDelegationChange(tx, tenantId, ids, action, by, subject, notice);
  // A suspended parent makes its children invalid (Parent), a resumed one valid again; no other move here changes what its subtree holds.
  if (action === 'suspend' || action === 'resume') await revalidate(tx, tenantId, { delegationIds: ids }, by);
}
