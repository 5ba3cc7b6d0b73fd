import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ATTESTATION_STEP_SUBJECTS } from '@ddm/contracts';
import { Consumers, LOGGER } from '@ddm/platform';
import { Logger } from 'pino';
import { openSystemAction, settleSystemActions } from '../actions/action-refs';
import { attestationCauseKey } from '../core/system-actions.rules';

/**
 * Attestation campaigns of the decision area, as system actions: each delegation a campaign covers
 * opens one Attestation action (per campaign and delegation, however often its event arrives) for
 * the people holding it, owned by whoever opened the campaign and due at its due date; an answer
 * recorded in the decision area (here or there) completes it; the due date passing unanswered
 * cancels it. Answering the action itself is POST /actions/v1/actions/{actionId}/attestation-response.
 */
@Injectable()
export class AttestationStepsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'actions-attestation-steps',
      subjects: ATTESTATION_STEP_SUBJECTS,
      handle: async ({ subject, payload: e }, tx) => {
        const causeKey = attestationCauseKey(e.campaignId, e.delegationId);
        switch (subject) {
          case 'evt.decision.attestation.requested':
            if (!e.holderUserIds.length) {
              this.log.warn({ campaignId: e.campaignId, delegationId: e.delegationId }, 'nobody holds the delegation to attest: no Attestation action opened');
              return;
            }
            await openSystemAction(tx, {
              tenantId: e.tenantId, kind: 'ATTESTATION', causeKey, actionName: `Attest delegation ${e.delegationDisplayId} (${e.campaignName})`, typeKey: 'REVIEW',
              ownerId: e.requestedById, assigneeIds: e.holderUserIds, decisionId: e.decisionId, delegationId: e.delegationId, requestedBy: e.requestedById, dueDate: e.dueDate,
            });
            return;
          case 'evt.decision.attestation.responded':
            await settleSystemActions(tx, e.tenantId, ['ATTESTATION'], { causeKey }, 'COMPLETED');
            return;
          case 'evt.decision.attestation.overdue':
            await settleSystemActions(tx, e.tenantId, ['ATTESTATION'], { causeKey }, 'CANCELED');
            return;
        }
      },
    });
  }
}
