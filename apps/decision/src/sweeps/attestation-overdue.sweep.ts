import { Inject, Injectable } from '@nestjs/common';
import { Db, LOGGER, ScheduledSweep } from '@ddm/platform';
import { Logger } from 'pino';
import { markOverdueAttestations } from '../attestations/attestation-refs';

/** How often the sweep looks for campaigns past their due date. */
export const ATTESTATION_SWEEP_MS = 60_000;
/** Most campaigns, and most items, one sweep takes (the next takes the rest). */
const BATCH = 500;

/**
 * A campaign's due date passing: every ATTESTATION_SWEEP_MS each replica marks what is left of the
 * campaigns past due overdue (markOverdueAttestations: up to BATCH items, delegations suspended
 * where the campaign says so), in one transaction across tenants.
 */
@Injectable()
export class AttestationOverdueSweep extends ScheduledSweep {
  constructor(
    private readonly db: Db,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, ATTESTATION_SWEEP_MS, 'attestation items overdue');
  }

  /** One sweep: answers how many items it marked overdue. */
  sweep(): Promise<number> {
    // Cross-tenant by nature: the explicit path (Db.acrossTenants).
    return this.db.acrossTenants('mark attestation items past their due date overdue, in every tenant', () => this.db.transaction((tx) => markOverdueAttestations(tx, BATCH)));
  }
}
