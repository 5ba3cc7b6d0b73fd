import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';

export class ColumnViewSettingsDto {
  @ApiPropertyOptional({ type: [String], maxItems: 200 })
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  columns: string[];
}

export class DashboardCellDto {
  @IsInt() @Min(0) @Max(1000) x: number;
  @IsInt() @Min(0) @Max(1000) y: number;
  @IsNumber() @Min(0) @Max(1000) w: number;
  @IsNumber() @Min(0) @Max(1000) h: number;
  @IsString() @MaxLength(100) i: string;
}

/** The caller's own preferences. */
export class UpdatePreferencesDto {
  @ApiPropertyOptional({ maxLength: 20, example: 'en' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  displayLanguage?: string;

  @ApiPropertyOptional({ maxLength: 30, example: 'DD/MM/YYYY' })
  @IsOptional()
  @IsString()
  @MaxLength(30)
  dateFormat?: string;

  @ApiPropertyOptional({ type: ColumnViewSettingsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ColumnViewSettingsDto)
  columnViewSettings?: ColumnViewSettingsDto;

  @ApiPropertyOptional({ type: [DashboardCellDto], maxItems: 100 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => DashboardCellDto)
  dashboardData?: DashboardCellDto[];
}
