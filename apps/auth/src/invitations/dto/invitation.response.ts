import { ApiProperty } from '@nestjs/swagger';

export class BulkItemResult {
  @ApiProperty() email: string;
  @ApiProperty() success: boolean;
  @ApiProperty() message: string;
}

/** Outcome of bulk-invite and bulk-resend-invite: totals and one result per item, in request order. */
export class BulkResult {
  @ApiProperty() total: number;
  @ApiProperty() successful: number;
  @ApiProperty() failed: number;
  @ApiProperty({ type: [BulkItemResult] }) results: BulkItemResult[];
}

export function toBulkResult(results: BulkItemResult[]): BulkResult {
  const successful = results.filter((r) => r.success).length;
  return { total: results.length, successful, failed: results.length - successful, results };
}
