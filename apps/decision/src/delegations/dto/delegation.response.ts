/** What the delegations resource answers besides a delegation's view (core/delegation.view.ts). */
import { ApiProperty } from '@nestjs/swagger';
import { DelegationView } from '../../core/delegation.view';

/** GET a delegation: its view, with how fresh the answer is. */
export class DelegationReadView extends DelegationView {
  @ApiProperty({
    format: 'date-time',
    description:
      'The decision area has applied every event it follows (people, positions, groups... of the auth and settings areas) published before this instant; ' +
      'the answer (its isInvalid and invalidFields among them) reflects at least that',
  })
  consistentAsOf: string;
}

export class BulkDeleteDelegationsResult {
  @ApiProperty() deleteCount: number;
}

/** POST delegation-request-action: who is asked for a redelegation (the actions area opens the action). */
export class DelegationRequestView {
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({ example: 'Delegation Request' }) actionName: string;
  @ApiProperty({ format: 'uuid', description: 'Who asks (the owner of the action)' }) actionOwnerId: string;
  @ApiProperty({ type: [String], format: 'uuid', description: 'Who holds the delegation today (the assignees of the action)' }) actionAssigneeIds: string[];
}
