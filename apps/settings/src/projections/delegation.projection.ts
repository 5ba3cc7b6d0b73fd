import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DelegationEvent, EVENT_SUBJECTS } from '@ddm/contracts';
import { Consumers, Tx, applyVersionedProjection } from '@ddm/platform';

type DelegationSubject = typeof EVENT_SUBJECTS.delegationIssued | typeof EVENT_SUBJECTS.delegationUpdated | typeof EVENT_SUBJECTS.delegationRevoked;

/**
 * settings.delegation_projection: the decision area's delegations as evt.decision.delegation.*
 * tell them. Feeds positions' delegationsReceived/delegationsIssued, groups' counts and the
 * positions list's delegation filters. Applied with the shared projection helper: pinned to its
 * tenant, an older version changes nothing, and a revoked delegation stays revoked (and stops counting).
 */
@Injectable()
export class DelegationProjection implements OnApplicationBootstrap {
  constructor(private readonly consumers: Consumers) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'settings-decision-delegations',
      subjects: [EVENT_SUBJECTS.delegationIssued, EVENT_SUBJECTS.delegationUpdated, EVENT_SUBJECTS.delegationRevoked],
      handle: (msg, tx) => this.apply(tx, msg.subject, msg.payload),
    });
  }

  /** Applies one event (in the consumer's transaction, which records the message as processed). */
  apply(tx: Tx, subject: DelegationSubject, e: DelegationEvent): Promise<boolean> {
    return applyVersionedProjection(tx, {
      table: 'settings.delegation_projection',
      key: 'delegation_id',
      id: e.delegationId,
      tenantId: e.tenantId,
      version: e.version,
      values: {
        decision_id: e.decisionId,
        issuer_type: e.issuerType,
        issuer_user_id: e.issuerUserId ?? null,
        issuer_position_id: e.issuerPositionId ?? null,
        recipient_type: e.recipientType,
        recipient_user_id: e.recipientUserId ?? null,
        recipient_position_id: e.recipientPositionId ?? null,
        pathways: e.pathways,
        group_ids: e.groupIds,
      },
      terminal: { column: 'revoked_on', reached: subject === EVENT_SUBJECTS.delegationRevoked },
    });
  }
}
