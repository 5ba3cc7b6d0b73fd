import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DelegationEvent, EVENT_SUBJECTS } from '@ddm/contracts';
import { Consumers, Tx, applyVersionedProjection } from '@ddm/platform';

type DelegationSubject = typeof EVENT_SUBJECTS.delegationIssued | typeof EVENT_SUBJECTS.delegationUpdated | typeof EVENT_SUBJECTS.delegationRevoked;

/**
 * auth.delegation_projection: who issued and who received each delegation of the decision area,
 * behind users' delegationsIssued/delegationsReceived. Applied with the shared projection helper:
 * pinned to its tenant, an older version changes nothing, and a revoked delegation stays revoked
 * (and stops counting).
 */
@Injectable()
export class DelegationProjection implements OnApplicationBootstrap {
  constructor(private readonly consumers: Consumers) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'auth-decision-delegations',
      subjects: [EVENT_SUBJECTS.delegationIssued, EVENT_SUBJECTS.delegationUpdated, EVENT_SUBJECTS.delegationRevoked],
      handle: (msg, tx) => this.apply(tx, msg.subject, msg.payload),
    });
  }

  apply(tx: Tx, subject: DelegationSubject, e: DelegationEvent): Promise<boolean> {
    return applyVersionedProjection(tx, {
      table: 'auth.delegation_projection',
      key: 'delegation_id',
      id: e.delegationId,
      tenantId: e.tenantId,
      version: e.version,
      values: { issuer_user_id: e.issuerUserId, recipient_user_id: e.recipientUserId },
      terminal: { column: 'revoked_on', reached: subject === EVENT_SUBJECTS.delegationRevoked },
    });
  }
}
