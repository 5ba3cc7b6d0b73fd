import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DELEGATION_ENDED_STATUSES, DelegationEvent, DelegationRequestEvent, DelegationRoleEvent, EventSubject } from '@ddm/contracts';
import { Consumers, LOGGER, Tx } from '@ddm/platform';
import { Logger } from 'pino';
import { openSystemAction, settleSystemActions } from '../actions/action-refs';
import { acceptanceAssignees, approvalAssignees, pendingStage, settledByDelegationStatus } from './delegation-steps.rules';

const SUBJECTS = [
  'evt.decision.delegation.issued',
  'evt.decision.delegation.updated',
  'evt.decision.delegation.revoked',
  'evt.decision.delegation.pending',
  'evt.decision.delegation.accepted',
  'evt.decision.delegation.rejected',
  'evt.decision.delegation.expired',
  'evt.decision.delegation.requested',
  'evt.decision.delegation.role-assigned',
] as const satisfies readonly EventSubject[];

const approvalKey = (delegationId: string) => `delegation:${delegationId}:approval`;
const acceptanceKey = (delegationId: string) => `delegation:${delegationId}:acceptance`;
/** The cause keys of a role's acceptances on a delegation: one per assignment. */
const roleCausePrefix = (delegationId: string, roleId: string) => `delegation:${delegationId}:role:${roleId}:`;
const label = (e: DelegationEvent) => e.delegationDisplayId ?? e.delegationId;

/**
 * The delegation steps people must take, as system actions (one consumer, so a delegation's events
 * are applied in the order they were published): a pending delegation opens its Delegation Approval
 * (approvers) or Delegation Acceptance (recipient) action, owned by the issuer; a request opens the
 * holder's Delegation Request action; the delegation's later status completes them (accepted,
 * approved, rejected) or cancels them (revoked, expired, ...).
 */
@Injectable()
export class DelegationStepsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'actions-delegation-steps',
      subjects: SUBJECTS,
      handle: async (msg, tx) => {
        if (msg.subject === 'evt.decision.delegation.requested') return this.requested(tx, msg.payload);
        if (msg.subject === 'evt.decision.delegation.role-assigned') return this.roleAssigned(tx, msg.payload);
        if (msg.subject === 'evt.decision.delegation.pending') return this.pending(tx, msg.payload);
        const e = msg.payload;
        // A notice names the move whatever status it carries; a state event carries the status.
        const status =
          msg.subject === 'evt.decision.delegation.accepted' ? 'ACCEPTED' : msg.subject === 'evt.decision.delegation.rejected' ? 'REJECTED' : msg.subject === 'evt.decision.delegation.expired' ? 'EXPIRED' : msg.subject === 'evt.decision.delegation.revoked' ? 'REVOKED' : e.status;
        const ended = (DELEGATION_ENDED_STATUSES as readonly (string | undefined)[]).includes(status);
        const { complete, cancel } = settledByDelegationStatus(status, ended);
        await settleSystemActions(tx, e.tenantId, complete, { delegationId: e.delegationId }, 'COMPLETED');
        await settleSystemActions(tx, e.tenantId, cancel, { delegationId: e.delegationId }, 'CANCELED');
      },
    });
  }

  private async pending(tx: Tx, e: DelegationEvent): Promise<void> {
    const [approval] = await tx.query<{ cause_version: string | null }>(`SELECT cause_version FROM actions.actions WHERE tenant_id = $1 AND cause_key = $2`, [
      e.tenantId,
      approvalKey(e.delegationId),
    ]);
    const [settings] = await tx.query<{ approval_required: boolean }>(`SELECT approval_required FROM actions.tenant_settings_projection WHERE id = $1`, [e.tenantId]);
    const stage = pendingStage(settings?.approval_required ?? false, approval ? (approval.cause_version === null ? null : Number(approval.cause_version)) : undefined, e.version, e.pendingStage);
    if (stage === 'REPEAT') return;
    if (stage === 'APPROVAL') {
      const assignees = approvalAssignees(e);
      // Opened even without an approver named: the issuer sees the step, and the next pending event is then known to be the acceptance stage.
      if (!assignees.length) this.log.warn({ delegationId: e.delegationId }, 'pending delegation at its approval stage names no approver: its approval action has no assignee');
      await openSystemAction(tx, {
        tenantId: e.tenantId, kind: 'DELEGATION_APPROVAL', causeKey: approvalKey(e.delegationId), causeVersion: e.version ?? null,
        actionName: `Approve delegation ${label(e)}`, typeKey: 'APPROVAL', ownerId: e.issuerUserId, assigneeIds: assignees,
        decisionId: e.decisionId, delegationId: e.delegationId,
      });
      return;
    }
    // The acceptance stage: an approval before it was given.
    if (approval) await settleSystemActions(tx, e.tenantId, ['DELEGATION_APPROVAL'], { delegationId: e.delegationId }, 'COMPLETED');
    const assignees = acceptanceAssignees(e);
    if (!assignees.length) {
      this.log.warn({ delegationId: e.delegationId }, 'pending delegation names no recipient: no acceptance action opened');
      return;
    }
    await openSystemAction(tx, {
      tenantId: e.tenantId, kind: 'DELEGATION_ACCEPTANCE', causeKey: acceptanceKey(e.delegationId), causeVersion: e.version ?? null,
      actionName: `Accept delegation ${label(e)}`, typeKey: 'TASK', ownerId: e.issuerUserId, assigneeIds: assignees,
      decisionId: e.decisionId, delegationId: e.delegationId,
    });
  }

  /**
   * A role set on a delegation: the earlier assignment's open acceptance is canceled (its people or
   * terms changed), and an ACTIVE role with designees opens one Decision Role Acceptance action for
   * them, once per assignment, owned by the delegation's issuer.
   */
  private async roleAssigned(tx: Tx, e: DelegationRoleEvent): Promise<void> {
    const prefix = roleCausePrefix(e.delegationId, e.roleId);
    await settleSystemActions(tx, e.tenantId, ['DECISION_ROLE_ACCEPTANCE'], { causePrefix: prefix, except: `${prefix}${e.assignmentId}` }, 'CANCELED');
    if (e.roleStatus !== 'ACTIVE' || !e.designeeUserIds.length) return;
    await openSystemAction(tx, {
      tenantId: e.tenantId, kind: 'DECISION_ROLE_ACCEPTANCE', causeKey: `${prefix}${e.assignmentId}`,
      actionName: `Accept the role ${e.roleName} on delegation ${e.delegationDisplayId}`, typeKey: 'TASK', ownerId: e.issuerUserId, assigneeIds: e.designeeUserIds,
      decisionId: e.decisionId, delegationId: e.delegationId,
    });
  }

  private async requested(tx: Tx, e: DelegationRequestEvent): Promise<void> {
    await openSystemAction(tx, {
      tenantId: e.tenantId, kind: 'DELEGATION_REQUEST', causeKey: `delegation-request:${e.requestId}`, actionName: e.actionName, typeKey: 'TASK',
      ownerId: e.actionOwnerId, assigneeIds: e.actionAssigneeIds, decisionId: e.decisionId, delegationId: e.delegationId, requestedBy: e.requestedById,
    });
  }
}
