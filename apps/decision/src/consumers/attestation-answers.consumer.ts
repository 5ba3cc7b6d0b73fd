import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppError } from '@ddm/contracts';
import { Consumers, LOGGER } from '@ddm/platform';
import { Logger } from 'pino';
import { recordAttestationAnswer } from '../attestations/attestation-refs';

/**
 * Answers given in the actions area (a holder completed the Attestation action: confirm or dispute)
 * recorded here by the same method as an answer sent to POST .../respond, in the consumer's
 * transaction (applied once). An answer the rules refuse (no longer the holder, answered already
 * here, past due) is not retried: it is logged, and the item stays as it is.
 */
@Injectable()
export class AttestationAnswersConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'decision-attestation-answers',
      subjects: ['evt.actions.attestation.responded'],
      handle: async ({ payload: e }, tx) => {
        try {
          await recordAttestationAnswer(tx, {
            tenantId: e.tenantId,
            campaignId: e.campaignId,
            delegationId: e.delegationId,
            userId: e.respondedById,
            outcome: e.outcome,
            comment: e.comment ?? null,
            via: 'ACTION',
          });
        } catch (err) {
          // The refusal is thrown before anything is written: the transaction commits the processed message only.
          if (!(err instanceof AppError)) throw err;
          this.log.warn({ err, campaignId: e.campaignId, delegationId: e.delegationId, actionId: e.actionId }, 'attestation answer from the actions area refused');
        }
      },
    });
  }
}
