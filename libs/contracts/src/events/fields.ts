/**
 * Field decorators of event payload classes. Each field is declared once: the class-validator
 * rules that check a payload when it is published and when it is consumed, and (through
 * class-validator-jsonschema) its JSON Schema in the AsyncAPI document.
 *
 * Nullable fields (`string | null`) accept null and absence alike, so a consumer keeps working
 * when a producer adds a field (compatible change) or leaves out one that was always optional.
 */
import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, MaxLength, Min, ValidateNested, ArrayMaxSize } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

type SchemaLike = Record<string, unknown>;

/**
 * How a consumer reads a field it receives ("be liberal in what you accept"): a nullable id that
 * is not a UUID reads as null, ids read lower case, arrays keep their valid items (unique, at most
 * their maximum), strings are cut to their maximum. Publishing is strict (`validateEvent`); what
 * a reading cannot repair (a missing required field, a wrong type) still fails validation.
 */
type Reader = (value: unknown) => unknown;
const READERS = new Map<Function, Map<string, Reader>>(); // eslint-disable-line @typescript-eslint/no-unsafe-function-type

function reads(reader: Reader): PropertyDecorator {
  return (target, key) => {
    const ctor = target.constructor;
    if (!READERS.has(ctor)) READERS.set(ctor, new Map());
    READERS.get(ctor)!.set(String(key), reader);
  };
}

/** A payload of class `type` as a consumer reads it (see `Reader`); the input is not changed. */
export function readLeniently(type: Function, value: unknown): unknown { // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (let proto = type; proto && proto !== Object; proto = Object.getPrototypeOf(proto)) {
    for (const [key, reader] of READERS.get(proto) ?? []) if (key in out) out[key] = reader(out[key]);
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuidText = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);
const unique = <T>(items: T[]) => [...new Set(items)];

interface FieldOptions {
  /** null (or absence) is accepted. */
  nullable?: boolean;
  /** absence is accepted (null is not, unless nullable). */
  optional?: boolean;
  description?: string;
}

/** Presence rules: a nullable or optional field may be left out; the JSON Schema says null when it may be null. */
function presence(o: FieldOptions, schema: (s: SchemaLike) => SchemaLike = (s) => s): PropertyDecorator[] {
  const out: PropertyDecorator[] = [];
  if (o.nullable || o.optional) out.push(IsOptional());
  out.push(
    JSONSchema((source) => {
      const s = schema(source as SchemaLike);
      const withNull = o.nullable ? nullable(s) : s;
      return (o.description ? { ...withNull, description: o.description } : withNull) as never;
    }) as PropertyDecorator,
  );
  return out;
}

function nullable(s: SchemaLike): SchemaLike {
  if (typeof s.type === 'string') return { ...s, type: [s.type, 'null'] };
  return { oneOf: [s, { type: 'null' }] };
}

/** A record id. */
export const UuidField = (o: FieldOptions = {}) =>
  applyDecorators(
    ...presence(o),
    IsUUID('all', { message: '$property must be a UUID' }),
    reads((v) => (isUuidText(v) ? v.toLowerCase() : o.nullable ? null : v)),
  );

/** A string of at most `max` characters. */
export const StringField = (o: FieldOptions & { max?: number } = {}) =>
  applyDecorators(
    ...presence(o),
    IsString({ message: '$property must be a string' }),
    ...(o.max ? [MaxLength(o.max)] : []),
    reads((v) => (typeof v === 'string' ? (o.max ? v.slice(0, o.max) : v) : o.nullable && v !== undefined ? null : v)),
  );

export const BooleanField = (o: FieldOptions = {}) => applyDecorators(...presence(o), IsBoolean({ message: '$property must be a boolean' }));

/** A whole number of at least `min`. */
export const IntField = (o: FieldOptions & { min?: number } = {}) =>
  applyDecorators(
    ...presence(o, (s) => ({ ...s, type: 'integer' })),
    IsInt({ message: `$property must be ${o.min === 0 ? 'a non-negative' : 'an'} integer` }),
    ...(o.min !== undefined ? [Min(o.min, { message: `$property must be ${o.min === 0 ? 'a non-negative' : 'an'} integer` })] : []),
  );

/** One of `values`. */
export const EnumField = (values: readonly string[], o: FieldOptions = {}) =>
  applyDecorators(...presence(o), IsIn(values as string[], { message: `$property must be one of ${values.join(', ')}` }));

/** An array of record ids (at most `max`). */
export const UuidArrayField = (o: FieldOptions & { max?: number } = {}) =>
  applyDecorators(
    ...presence(o),
    IsArray({ message: '$property must be an array' }),
    ...(o.max ? [ArrayMaxSize(o.max)] : []),
    IsUUID('all', { each: true, message: '$property must hold UUIDs' }),
    reads((v) => (Array.isArray(v) ? unique(v.filter(isUuidText).map((x) => x.toLowerCase())).slice(0, o.max) : v)),
  );

/** An array of strings (at most `max`, each at most `maxLength`). */
export const StringArrayField = (o: FieldOptions & { max?: number; maxLength?: number } = {}) =>
  applyDecorators(
    ...presence(o),
    IsArray({ message: '$property must be an array' }),
    ...(o.max ? [ArrayMaxSize(o.max)] : []),
    IsString({ each: true, message: '$property must hold strings' }),
    ...(o.maxLength ? [MaxLength(o.maxLength, { each: true })] : []),
    reads((v) =>
      Array.isArray(v)
        ? unique(
            v
              .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
              .map((x) => (o.maxLength ? x.trim().slice(0, o.maxLength) : x.trim())),
          ).slice(0, o.max)
        : v,
    ),
  );

/** An object of the class `type()`, validated field by field. */
export const NestedField = (type: () => new () => object, o: FieldOptions = {}) =>
  applyDecorators(
    ...(o.nullable || o.optional ? [] : [IsDefined({ message: '$property must be an object' })]),
    ...presence(o),
    IsObject({ message: '$property must be an object' }),
    ValidateNested(),
    Type(type),
    reads((v) => readLeniently(type(), v)),
  );

/** An array of objects of the class `type()` (at most `max`). */
export const NestedArrayField = (type: () => new () => object, o: FieldOptions & { max?: number } = {}) =>
  applyDecorators(
    ...presence(o),
    IsArray({ message: '$property must be an array' }),
    ...(o.max ? [ArrayMaxSize(o.max)] : []),
    ValidateNested({ each: true }),
    Type(type),
    reads((v) => (Array.isArray(v) ? v.slice(0, o.max).map((item) => readLeniently(type(), item)) : v)),
  );

/** A free JSON object (a notification's `payload`): any keys, checked only to be an object. */
export const ObjectField = (o: FieldOptions = {}) =>
  applyDecorators(
    ...(o.nullable || o.optional ? [] : [IsDefined({ message: '$property must be an object' })]),
    ...presence(o, (s) => ({ ...s, type: 'object', additionalProperties: true })),
    IsObject({ message: '$property must be an object' }),
  );
