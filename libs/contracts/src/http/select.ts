import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Page } from './envelope';
import { EnumListQuery } from './validation';

/**
 * Every field name of a view, checked by the compiler: the object must name each key of the view
 * once and nothing else, so a new field of the view cannot be forgotten by `select`.
 */
export function viewFields<V extends object>(all: Record<keyof V & string, true>): readonly (keyof V & string)[] {
  return Object.keys(all) as (keyof V & string)[];
}

/**
 * `select` of a list or search that returns records (ARCHITECTURE §3, the product's name):
 * comma-separated field names of the item; only those keys come back per item. An unknown name is
 * a 400 whose `errors[].allowed` lists every field.
 */
export const SelectQuery = (fields: readonly string[]) =>
  applyDecorators(
    ApiPropertyOptional({
      description: `Comma-separated fields to return; only these keys come back per item. One of: ${fields.join(', ')}`,
      example: fields.slice(0, 2).join(','),
    }),
    EnumListQuery(fields, fields.length),
  );

/** Only the named fields of a view; none named (absent or empty) = the whole view. */
export function pickFields<V extends object>(view: V, fields: readonly string[] | null | undefined): Partial<V> {
  if (!fields?.length) return view;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = (view as Record<string, unknown>)[f];
  return out as Partial<V>;
}

/** A page whose items keep only the named fields (see pickFields). */
export function selectPage<V extends object>(page: Page<V>, fields: readonly string[] | null | undefined): Page<Partial<V>> {
  if (!fields?.length) return page;
  return new Page(page.data.map((v) => pickFields(v, fields)), page.total, page.page, page.limit, page.extra);
}
