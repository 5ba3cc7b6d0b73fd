import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsObject, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '@ddm/contracts';

/** The user's list columns. The views answer the same shape, so what a client reads it can write back. */
export class ColumnViewSettingsDto {
  @ApiProperty({ type: [String], maxItems: 200, description: 'Column names, in order' })
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  columns: string[];
}

/** A cell of the user's dashboard layout. */
export class DashboardCellDto {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1000 }) @IsInt() @Min(0) @Max(1000) x: number;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1000 }) @IsInt() @Min(0) @Max(1000) y: number;
  @ApiProperty({ minimum: 0, maximum: 1000 }) @IsNumber() @Min(0) @Max(1000) w: number;
  @ApiProperty({ minimum: 0, maximum: 1000 }) @IsNumber() @Min(0) @Max(1000) h: number;
  @ApiProperty({ maxLength: 100, description: 'The cell id' }) @IsString() @MaxLength(100) i: string;
}

/** The caller's own preferences: the fields given change; none of them can be null. */
export class UpdatePreferencesDto {
  @ApiPropertyOptional({ maxLength: 20, example: 'en' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(20)
  displayLanguage?: string;

  @ApiPropertyOptional({ maxLength: 30, example: 'DD/MM/YYYY' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(30)
  dateFormat?: string;

  @ApiPropertyOptional({ type: ColumnViewSettingsDto, description: 'An object with columns (an array is a 400); { "columns": [] } clears them' })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => ColumnViewSettingsDto)
  columnViewSettings?: ColumnViewSettingsDto;

  @ApiPropertyOptional({ type: [DashboardCellDto], maxItems: 100, description: 'Replaces the layout; [] clears it' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => DashboardCellDto)
  dashboardData?: DashboardCellDto[];
}
