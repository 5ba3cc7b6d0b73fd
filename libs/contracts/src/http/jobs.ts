/** The HTTP face of the bulk jobs of every area (ARCHITECTURE §3, async acceptance). */
import { ApiProperty } from '@nestjs/swagger';
import { JOB_STATUSES } from '../events/jobs.events';

/** `data` of an accepted bulk request: the job to follow at GET /<area>/v1/jobs/{jobId}. */
export class JobAcceptedView {
  @ApiProperty({ format: 'uuid' }) jobId: string;
  @ApiProperty({ enum: ['ACCEPTED'] }) status: 'ACCEPTED';
  @ApiProperty({ description: 'Distinct ids the job will handle' }) total: number;
}

/** One item a job could not handle, and why. */
export class JobErrorView {
  @ApiProperty({ format: 'uuid', description: 'The item (e.g. the decision) the job could not handle' }) id: string;
  @ApiProperty() message: string;
}

/** A job, as GET /<area>/v1/jobs/{jobId} answers it. */
export class JobView {
  @ApiProperty({ format: 'uuid' }) jobId: string;
  @ApiProperty({ example: 'bulk-duplicate' }) kind: string;
  @ApiProperty({ enum: JOB_STATUSES }) status: string;
  @ApiProperty({ description: 'Items to handle' }) total: number;
  @ApiProperty({ description: 'Items handled so far (succeeded + failed)' }) processed: number;
  @ApiProperty() succeeded: number;
  @ApiProperty() failed: number;
  @ApiProperty({ type: [JobErrorView], description: 'The items that failed, with the reason, in the order the request named them' }) errors: JobErrorView[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'User id of who asked for the job' }) requestedBy: string | null;
}
