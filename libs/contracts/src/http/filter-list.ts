import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsUUID, ValidateBy } from 'class-validator';
import { OptionalNotNull } from './validation';

/**
 * A list filter's value as sent (`a,b,c`, repeated parameters, or an array in a body), split and
 * trimmed, empty items KEPT: `status=` or `sectionIds: ""` is `[""]`, which NotEmptyItems refuses,
 * instead of an empty list read as "no filter" (a client that meant to filter would get everything).
 */
export const FilterCommaList = () =>
  Transform(
    ({ value }) => (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value)?.map?.((v: unknown) => (typeof v === 'string' ? v.trim() : v)) ?? value,
    { toClassOnly: true },
  );

/** No item of the list is an empty string (a 400 naming the field: leave the filter out to not filter). */
export const NotEmptyItems = () =>
  ValidateBy({
    name: 'notEmptyItems',
    validator: {
      validate: (value: unknown) => !Array.isArray(value) || value.every((v) => v !== ''),
      defaultMessage: (args) => `${args?.property ?? 'value'} must not be empty or hold an empty item; leave it out not to filter`,
    },
  });

/**
 * A list filter of record ids: `a,b,c` in a query string, an array (or the same comma string) in a
 * body; at most `max`, each a UUID; an empty value or item (`sectionIds=`, `sectionIds: ""`,
 * `"a,,b"`) is a 400 naming the field. Use instead of UuidListQuery on list and search filters.
 */
export const FilterUuidList = (max: number) =>
  applyDecorators(OptionalNotNull(), FilterCommaList(), IsArray(), ArrayMaxSize(max), NotEmptyItems(), IsUUID('all', { each: true }));

/**
 * A list filter of enumerated values (`status=ISSUED,ACCEPTED`), at most `max`; an unknown value,
 * an empty value or an empty item (`status=`, `status: ""`) is a 400 naming the field. Use instead
 * of EnumListQuery on list and search filters.
 */
export const FilterEnumList = (values: readonly string[], max: number = values.length) =>
  applyDecorators(OptionalNotNull(), FilterCommaList(), IsArray(), ArrayMaxSize(max), NotEmptyItems(), IsIn(values as string[], { each: true }));
