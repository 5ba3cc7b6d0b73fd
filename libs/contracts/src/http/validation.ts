import { ArgumentMetadata, Injectable, Param, PipeTransform, ValidationError, ValidationPipe, applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsInt, IsOptional, IsUUID, Max, Min, ValidateBy, ValidateIf, getMetadataStorage, isISO8601 } from 'class-validator';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { FieldError, badRequest } from './errors';

/**
 * The values an `@IsIn` field accepts (read from the class's validation metadata, so a client can
 * read them whole in `errors[].allowed` however long the message is). Undefined for other failures.
 */
function allowedValues(e: ValidationError): string[] | undefined {
  const target = e.target?.constructor as Ctor | undefined;
  if (!e.constraints?.isIn || !target) return undefined;
  const rule = getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .find((m) => m.propertyName === e.property && m.name === 'isIn');
  const values: unknown = rule?.constraints?.[0];
  return Array.isArray(values) ? values.map(String) : undefined;
}

/** Flattens class-validator's tree into `[{ field: 'a.b.0.c', message }]`, with `allowed` on a field that takes one of a list. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const allowed = allowedValues(e);
    const messages = Object.values(e.constraints ?? {});
    // A null where null is refused says only that (not also "must be a string", "must be an array", ...).
    const notNull = messages.find((m) => m.endsWith('must not be null'));
    for (const message of notNull ? [notNull] : messages) {
      const text = /^property \S+ should not exist$/.test(message)
        ? 'is not an accepted field'
        : message.startsWith(`${e.property} `)
          ? message.slice(e.property.length + 1)
          : message;
      out.push(allowed && message === e.constraints?.isIn ? { field, message: text, allowed } : { field, message: text });
    }
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, field));
  }
  return out;
}

/** At most this many field problems are listed in a 400 (the rest are counted), so an error answer stays small. */
export const MAX_LISTED_ERRORS = 50;

/** Longest message of one field problem; a longer one ends at a word boundary with "…" (its `allowed` stays whole). */
export const MAX_FIELD_MESSAGE = 300;

/**
 * `text` at most `max` characters, never cut inside a word: a longer text ends at the last blank or
 * comma that fits, followed by "…". A text without any (one word) is kept whole rather than cut.
 */
export function clipAtWord(text: string, max: number = MAX_FIELD_MESSAGE): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max); // room for the ellipsis is made below
  const cut = Math.max(head.lastIndexOf(' '), head.lastIndexOf(','));
  if (cut <= 0) return text;
  return `${text.slice(0, cut).replace(/[\s,;:]+$/, '')} …`;
}

/** The field problems a 400 lists (the first `MAX_LISTED_ERRORS`) and its one-line message, with a count of the rest. */
export function capErrors(fields: readonly FieldError[]): { shown: FieldError[]; message: string } {
  const shown = fields.slice(0, MAX_LISTED_ERRORS).map((f) => ({ ...f, field: f.field.slice(0, 200), message: clipAtWord(f.message, MAX_FIELD_MESSAGE - 2) }));
  const rest = fields.length - shown.length;
  const message = shown.map((f) => `${f.field} ${f.message}`).join('; ') + (rest > 0 ? `; and ${rest} more problem${rest === 1 ? '' : 's'}` : '');
  return { shown, message };
}

type Ctor = new (...args: never[]) => unknown;

/**
 * Arrays of a raw body longer than their DTO allows (`@ArrayMaxSize`), found before class-transformer
 * and class-validator look at any item: 10,000 items are refused for their count alone, instead of
 * being turned into instances and validated one by one (which overflowed the stack and answered
 * megabytes of errors). Follows nested DTOs (`@ValidateNested` + `@Type`) into arrays within bounds.
 */
/** What oversizedArrays reads of a class: its arrays' size limits and its nested properties (read once per class). */
interface SizeRules {
  maxSizes: { property: string; max: number }[];
  nested: { property: string; type: Ctor }[];
}
const SIZE_RULES = new WeakMap<Ctor, SizeRules>();

function sizeRulesOf(metatype: Ctor): SizeRules {
  let rules = SIZE_RULES.get(metatype);
  if (!rules) {
    // The metadata storage filters every class's metadata on each call: a few µs per request.
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
    rules = {
      maxSizes: metadatas.filter((m) => m.name === 'arrayMaxSize').map((m) => ({ property: m.propertyName, max: Number(m.constraints?.[0]) })),
      nested: metadatas
        .filter((m) => m.type === 'nestedValidation')
        .map((m) => ({ property: m.propertyName, type: defaultMetadataStorage.findTypeMetadata(metatype, m.propertyName)?.typeFunction() as Ctor | undefined }))
        .filter((n): n is { property: string; type: Ctor } => !!n.type),
    };
    SIZE_RULES.set(metatype, rules);
  }
  return rules;
}

export function oversizedArrays(metatype: Ctor, value: unknown, prefix = '', depth = 0): FieldError[] {
  if (!value || typeof value !== 'object' || Array.isArray(value) || depth > 8) return [];
  const { maxSizes, nested } = sizeRulesOf(metatype);
  const out: FieldError[] = [];
  const tooLong = new Set<string>();
  for (const { property, max } of maxSizes) {
    const v = (value as Record<string, unknown>)[property];
    if (Array.isArray(v) && v.length > max) {
      tooLong.add(property);
      out.push({ field: prefix + property, message: `must contain no more than ${max} elements` });
    }
  }
  for (const { property, type } of nested) {
    if (tooLong.has(property)) continue;
    const v = (value as Record<string, unknown>)[property];
    const items = Array.isArray(v) ? v.slice(0, 1000) : [v];
    items.forEach((item, i) => out.push(...oversizedArrays(type, item, `${prefix}${property}${Array.isArray(v) ? `.${i}` : ''}.`, depth + 1)));
  }
  return out;
}

/**
 * The one global ValidationPipe (ARCHITECTURE §3): unknown fields are a 400 listing every bad field
 * (the first 50); an array longer than allowed is refused before its items are read.
 */
class SizeCheckingValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.metatype && typeof metadata.metatype === 'function' && (metadata.type === 'body' || metadata.type === 'query')) {
      const oversized = oversizedArrays(metadata.metatype as Ctor, value);
      if (oversized.length) {
        const { shown, message } = capErrors(oversized);
        throw badRequest(`Invalid input: ${message}`, shown);
      }
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new SizeCheckingValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The target lets flattenValidationErrors read an @IsIn field's allowed values; no value is ever echoed.
    validationError: { target: true, value: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const { shown, message } = capErrors(flattenValidationErrors(errors));
      return badRequest(`Invalid input: ${message}`, shown);
    },
  });
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/** Path parameter pipe: a malformed UUID is a 400 naming the parameter. */
@Injectable()
export class ParseUuidPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isUuid(value)) {
      const field = metadata.data ?? 'id';
      throw badRequest(`${field} must be a UUID`, [{ field, message: 'must be a UUID' }]);
    }
    return value.toLowerCase();
  }
}

/** `@UuidParam('id')`: a path parameter that must be a record id. */
export const UuidParam = (name: string) => Param(name, ParseUuidPipe);

/**
 * The instant an ISO 8601 date-time names, canonical: UTC to the millisecond, as every view shows
 * instants. One without an offset is UTC (spec: timestamps are in UTC), never the local time of
 * the process or of the database session; digits past the millisecond are dropped. Null when the
 * text is no ISO 8601 date-time or names no real instant (2021-02-30).
 */
export function toInstant(value: string): string | null {
  if (!isISO8601(value, { strict: true, strictSeparator: true })) return null;
  const zoned = !value.includes('T') || /(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(value);
  const ms = Date.parse(zoned ? value : `${value}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const ISO_MESSAGE = 'must be an ISO 8601 date-time (e.g. 2026-01-31T12:00:00.000Z)';

/** A query or body field holding an ISO 8601 date-time; the DTO receives it as `toInstant` makes it. */
export const IsoDateTime = () =>
  applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? (toInstant(value) ?? value) : value), { toClassOnly: true }),
    ValidateBy({ name: 'isIsoDateTime', validator: { validate: (v: unknown) => typeof v === 'string' && toInstant(v) !== null, defaultMessage: () => `$property ${ISO_MESSAGE}` } }),
  );

/** Path parameter pipe: an ISO 8601 date-time (a real date: 2021-02-30 is a 400 naming the parameter), answered as `toInstant` makes it. */
@Injectable()
export class ParseIsoDateTimePipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    const instant = toInstant(value);
    if (instant === null) {
      const field = metadata.data ?? 'date';
      throw badRequest(`${field} must be an ISO 8601 date-time`, [{ field, message: ISO_MESSAGE }]);
    }
    return instant;
  }
}

/** `@IsoDateTimeParam('revisionDate')`: a path parameter that must be an ISO 8601 date-time. */
export const IsoDateTimeParam = (name: string) => Param(name, ParseIsoDateTimePipe);

/** Accepts true/false as booleans or as the strings 'true'/'false' (spec's string booleans). */
export const ToBoolean = () =>
  Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value), { toClassOnly: true });

/** Accepts `a,b,c` or repeated parameters; yields a trimmed array without empties. */
export const CommaList = () =>
  Transform(
    ({ value }) =>
      (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value)?.map?.((v: unknown) => (typeof v === 'string' ? v.trim() : v)).filter((v: unknown) => v !== '') ?? value,
    { toClassOnly: true },
  );

/**
 * What `null` means, decided once for every request field (apps use these two, never class-validator's
 * `IsOptional`, which lets `null` through to handlers):
 *
 * - `@OptionalNotNull()`: the field may be left out; `null` is a 400 "must not be null". The
 *   default for every optional field: objects, arrays, booleans, enumerations, names.
 * - `@Nullable()`: the field may be left out or sent as `null`, and `null` clears the stored value
 *   (a text that may be empty in the record: displayName, externalId, ...). Only for fields whose
 *   column is nullable; the OpenAPI schema must say `nullable: true`.
 */
export const OptionalNotNull = () =>
  applyDecorators(
    ValidateIf((_object: unknown, value: unknown) => value !== undefined),
    IsDefined({ message: '$property must not be null' }),
  );

/** The field may be left out or be `null` (which clears it); see `OptionalNotNull`. */
export const Nullable = () => IsOptional();

/** Surrounding blanks are not part of the value (names are checked and stored trimmed). */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value), { toClassOnly: true });

/** The status of every record that can be (de)activated: groups, group types, positions, decision roles. */
export const RECORD_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

export type SortOrder = 'asc' | 'desc';
export const SORT_ORDERS: SortOrder[] = ['asc', 'desc'];

export const MAX_PAGE = 100_000;

/** `page` and `limit` of every list (page >= 1, limit 1..100). */
export class PageQuery {
  /** Capped so a page's cost stays bounded (offset at most 10,000,000 rows). */
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 1 })
  @OptionalNotNull()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 10 })
  @OptionalNotNull()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 10;

  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'asc' })
  @OptionalNotNull()
  @IsIn(SORT_ORDERS)
  sortOrder: SortOrder = 'asc';
}

/** Rows to skip for a page (a function, not a PageQuery property, so a client-sent `offset` is just an unknown field). */
export function pageOffset(q: { page: number; limit: number }): number {
  return (q.page - 1) * q.limit;
}

/** A page of a list that also filters by creation and last-update time (ARCHITECTURE §3 names). Dates must exist (2021-02-30 is a 400). */
export class DatedPageQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Created at or after (ISO 8601 date-time)', example: '2026-01-01T00:00:00.000Z' })
  @OptionalNotNull()
  @IsoDateTime()
  createdAtStart?: string;

  @ApiPropertyOptional({ description: 'Created at or before (ISO 8601 date-time; inclusive to the millisecond)', example: '2026-12-31T23:59:59.999Z' })
  @OptionalNotNull()
  @IsoDateTime()
  createdAtEnd?: string;

  @ApiPropertyOptional({ description: 'Last updated at or after (ISO 8601 date-time)', example: '2026-01-01T00:00:00.000Z' })
  @OptionalNotNull()
  @IsoDateTime()
  updatedAtStart?: string;

  @ApiPropertyOptional({ description: 'Last updated at or before (ISO 8601 date-time; inclusive to the millisecond)', example: '2026-12-31T23:59:59.999Z' })
  @OptionalNotNull()
  @IsoDateTime()
  updatedAtEnd?: string;
}

/** A query parameter holding an optional comma-separated list of record ids (at most `max`; each a UUID). */
export const UuidListQuery = (max: number) => applyDecorators(OptionalNotNull(), CommaList(), IsArray(), ArrayMaxSize(max), IsUUID('all', { each: true }));

/** A query parameter holding an optional comma-separated list of enumerated values (at most `max`; an unknown value is a 400). */
export const EnumListQuery = (values: readonly string[], max: number = values.length) =>
  applyDecorators(OptionalNotNull(), CommaList(), IsArray(), ArrayMaxSize(max), IsIn(values as string[], { each: true }));

/** A field that holds any JSON value (a change log's before and after), typed in the OpenAPI document as one of the JSON kinds, never a bare object. */
export const ApiJsonValue = (description: string) =>
  ApiProperty({
    description,
    nullable: true,
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: {} }, { type: 'object', additionalProperties: true }],
  });
