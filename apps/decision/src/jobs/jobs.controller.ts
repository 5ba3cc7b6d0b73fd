import { Controller, Get } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, Caller, CurrentCaller, JobView, ResponseMessage, UuidParam } from '@ddm/contracts';
import { JobsService } from './jobs.service';

@ApiTags('Jobs')
@ApiAuth()
@Controller('v1/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get(':jobId')
  @ApiOperation({ summary: 'A bulk job', description: 'Progress and outcome of an accepted bulk request (e.g. a bulk duplicate): counts, the items that failed and why.' })
  @ApiOkResponse({ type: JobView })
  @ApiNotFoundResponse({ description: "Unknown job, or another tenant's" })
  @ResponseMessage('Job retrieved successfully')
  get(@UuidParam('jobId') jobId: string, @CurrentCaller() caller: Caller): Promise<JobView> {
    return this.jobs.get(caller, jobId);
  }
}
