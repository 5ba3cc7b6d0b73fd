import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { DatedPageQuery, EnumListQuery, IsoDateTime, OptionalNotNull, ToBoolean, UuidListQuery } from '@ddm/contracts';
import { ACTION_SORTS, ActionSort, MAX_LISTED_IDS } from '../action.rules';
import { ACTION_FIELDS } from './action.response';

/** GET /actions/v1/actions and GET /actions/v1/actions/global-search: the filters (comma lists of ids), the sort and `select`. */
export class ListActionsQuery extends DatedPageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Contained in the name, the description or the display id (case-insensitive)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ description: 'Comma-separated status ids' })
  @UuidListQuery(MAX_LISTED_IDS)
  actionStatusIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated priority ids' })
  @UuidListQuery(MAX_LISTED_IDS)
  actionPriorityIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated action type ids' })
  @UuidListQuery(MAX_LISTED_IDS)
  actionTypeIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated owner user ids' })
  @UuidListQuery(MAX_LISTED_IDS)
  ownerIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated user ids: actions assigned to any of them' })
  @UuidListQuery(MAX_LISTED_IDS)
  assigneeIds?: string[];

  @ApiPropertyOptional({ description: "Only the caller's actions: owned or assigned" })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  onlyMine?: boolean;

  @ApiPropertyOptional({ description: 'Only system-generated (true) or only manual (false) actions' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isSystemGenerated?: boolean;

  @ApiPropertyOptional({ description: 'Comma-separated decision ids' })
  @UuidListQuery(MAX_LISTED_IDS)
  decisionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated delegation ids' })
  @UuidListQuery(MAX_LISTED_IDS)
  delegationIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated document ids' })
  @UuidListQuery(MAX_LISTED_IDS)
  documentIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated action ids: only these' })
  @UuidListQuery(MAX_LISTED_IDS)
  selectedActionIds?: string[];

  @ApiPropertyOptional({ description: 'Due at or after (ISO 8601 date-time)' })
  @OptionalNotNull()
  @IsoDateTime()
  dueDateStart?: string;

  @ApiPropertyOptional({ description: 'Due at or before (ISO 8601 date-time; inclusive to the millisecond)' })
  @OptionalNotNull()
  @IsoDateTime()
  dueDateEnd?: string;

  @ApiPropertyOptional({ description: 'true: open actions whose due date has passed (whether or not the sweep has moved them to Overdue yet); false: the others' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  overdue?: boolean;

  @ApiPropertyOptional({ description: `Comma-separated fields to return; only these keys come back per item. One of: ${ACTION_FIELDS.join(', ')}`, example: 'id,actionName,dueDate' })
  @EnumListQuery(ACTION_FIELDS)
  select?: string[];

  @ApiPropertyOptional({ enum: ACTION_SORTS, default: 'createdAt', description: 'actionId sorts numerically; priority and status by their rank; ties are broken by id' })
  @OptionalNotNull()
  @IsIn(ACTION_SORTS)
  sortBy: ActionSort = 'createdAt';
}
