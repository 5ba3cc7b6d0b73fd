/** What a decision's revisions answer: one entry of its history, and the decision as it stood at an instant. */
import { ApiProperty } from '@nestjs/swagger';
import { DecisionView } from '../../decisions/decision-refs';

export class DecisionRevisionView extends DecisionView {
  @ApiProperty({ format: 'uuid' }) historyId: string;
  @ApiProperty({ format: 'date-time' }) historyDate: string;
}

/** One revision in a decision's history. */
export class DecisionHistoryEntryView {
  @ApiProperty({ format: 'uuid' }) historyId: string;
  @ApiProperty({ format: 'date-time' }) historyDate: string;
  @ApiProperty({ enum: ['created', 'updated', 'deleted', 'restored'] }) change: string;
  @ApiProperty({ type: [String], description: 'The fields this revision changed (empty for created, deleted, restored)' }) changedFields: string[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) revisedBy: string | null;
  @ApiProperty({ type: String, nullable: true }) revisedByUsername: string | null;
}
