import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@ddm/contracts';
import { CATEGORIES, TEMPLATE_KEYS, TemplateDefinition, TemplateText, placeholdersOf } from '../../core/template.rules';
import type { OverrideRow } from '../template.sql';

/** PATCH /v1/notifications/templates/{key}: the tenant's texts of a template (the fields given change). */
export class UpdateTemplateDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's active tenant" })
  @OptionalNotNull()
  @IsUUID('all')
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 500, description: 'Plain text; {{name}} placeholders of the default texts only', example: 'Delegation {{delegationDisplayId}} is yours' })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  titleTemplate?: string;

  @ApiPropertyOptional({ maxLength: 5000, description: 'HTML; {{name}} placeholders of the default texts only (their values are escaped)' })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(5000)
  messageTemplate?: string;
}

/** A notification template as the tenant sees it. */
export class TemplateView {
  @ApiProperty({ enum: TEMPLATE_KEYS }) templateKey: string;
  @ApiProperty({ enum: CATEGORIES }) category: string;
  @ApiProperty() titleTemplate: string;
  @ApiProperty() messageTemplate: string;
  @ApiProperty({ type: [String], description: 'The placeholder names the texts use (each required to create a notification)', example: ['delegationDisplayId'] }) placeholders: string[];
  @ApiProperty() isActionable: boolean;
  @ApiProperty({ description: 'The tenant changed the texts' }) isCustom: boolean;
}

export function toTemplateView(t: TemplateDefinition & { isCustom: boolean }): TemplateView {
  return {
    templateKey: t.templateKey,
    category: t.category,
    titleTemplate: t.titleTemplate,
    messageTemplate: t.messageTemplate,
    placeholders: placeholdersOf(t.titleTemplate, t.messageTemplate),
    isActionable: t.isActionable,
    isCustom: t.isCustom,
  };
}

/** An override row's texts (null: the tenant did not change the template). */
export function overrideText(o: OverrideRow | undefined): TemplateText | null {
  return o ? { titleTemplate: o.title_template, messageTemplate: o.message_template } : null;
}
