/** What every area's bulk jobs carry on NATS (the job mechanism lives in libs/platform/src/jobs.ts). */
import { EnumField, IntField, StringField, UuidField } from './fields';

/** How a job stands: accepted (waiting), running, and its three ends. */
export const JOB_STATUSES = ['ACCEPTED', 'RUNNING', 'COMPLETED', 'COMPLETED_WITH_ERRORS', 'FAILED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_END_STATUSES = ['COMPLETED', 'COMPLETED_WITH_ERRORS', 'FAILED'] as const;

/** job.<area>.<kind>: "run this job" (the work is in the job's row; the message only names it). */
export class JobMessage {
  @UuidField() tenantId: string;
  @UuidField() jobId: string;
}

/** evt.<area>.job.completed: a job ended (the notifications area tells the requester). */
export class JobCompletedEvent {
  @UuidField() tenantId: string;
  @UuidField() jobId: string;
  @StringField({ max: 50 }) kind: string;
  @EnumField(JOB_END_STATUSES) status: string;
  @IntField({ min: 0 }) total: number;
  @IntField({ min: 0 }) succeeded: number;
  @IntField({ min: 0 }) failed: number;
  @UuidField({ nullable: true }) requestedBy: string | null;
}
