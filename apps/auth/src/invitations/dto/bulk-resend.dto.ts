import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsUUID } from 'class-validator';
import { MAX_BULK } from './invite-user.dto';

export class BulkResendInviteDto {
  @ApiProperty()
  @IsUUID()
  tenantId: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_BULK, description: 'User record ids' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  userIds: string[];
}
