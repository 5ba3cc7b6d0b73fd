import { Injectable } from '@nestjs/common';
import { Caller, JobView } from '@ddm/contracts';
import { Jobs } from '@ddm/platform';

/**
 * The area's bulk jobs as their requesters see them: progress and outcome of an accepted bulk
 * request. The jobs themselves (`*.job.ts` here) register with the platform's job runner and do
 * their batches through core/ or the resource that owns the records (its `*-refs.ts`).
 */
@Injectable()
export class JobsService {
  constructor(private readonly jobs: Jobs) {}

  /** One job of the caller's tenant (404 for an unknown job or another tenant's). */
  get(caller: Caller, jobId: string): Promise<JobView> {
    return this.jobs.status(caller.tenantId, jobId);
  }
}
