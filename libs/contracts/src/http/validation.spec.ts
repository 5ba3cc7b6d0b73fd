import { ArgumentMetadata, ValidationError } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { AppError, ErrorCode, FieldError } from './errors';
import { CommaList, OptionalNotNull, PageQuery, ParseUuidPipe, RECORD_STATUSES, RecordStatus, ToBoolean, Trim, MAX_FIELD_MESSAGE, clipAtWord, createValidationPipe, flattenValidationErrors, pageOffset } from './validation';

class Address {
  @IsString()
  @MaxLength(5)
  city!: string;
}

class Item {
  @IsString()
  name!: string;
}

class CreateThing {
  @IsString()
  @MaxLength(10)
  title!: string;

  @ValidateNested()
  @Type(() => Address)
  address!: Address;

  @IsArray()
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => Item)
  items!: Item[];

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  isActive?: boolean;
}

class ListThings extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  isExternal?: boolean;

  @IsOptional()
  @CommaList()
  @IsString({ each: true })
  selectedThingIds?: string[];
}

const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype, data: '' });
const query = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'query', metatype, data: '' });

/** The error a promise rejects with (fails the test when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a rejection, got a value');
}

const VALID_THING = { title: 'ok', address: { city: 'Oslo' }, items: [{ name: 'a' }] };

describe('flattenValidationErrors', () => {
  it('names nested and array children by dotted path and strips the property name from messages', async () => {
    const tree: ValidationError[] = [
      { property: 'title', constraints: { isString: 'title must be a string' }, children: [] },
      {
        property: 'address',
        children: [{ property: 'city', constraints: { maxLength: 'city must be shorter than or equal to 5 characters' }, children: [] }],
      },
      {
        property: 'items',
        children: [
          {
            property: '1',
            children: [{ property: 'name', constraints: { isString: 'name must be a string' }, children: [] }],
          },
        ],
      },
    ];
    expect(flattenValidationErrors(tree)).toEqual([
      { field: 'title', message: 'must be a string' },
      { field: 'address.city', message: 'must be shorter than or equal to 5 characters' },
      { field: 'items.1.name', message: 'must be a string' },
    ]);
  });

  it('lists every constraint of a field and rewords unknown properties', async () => {
    const tree: ValidationError[] = [
      { property: 'title', constraints: { isString: 'title must be a string', maxLength: 'title must be shorter than or equal to 10 characters' } },
      { property: 'extra', constraints: { whitelistValidation: 'property extra should not exist' } },
    ];
    expect(flattenValidationErrors(tree)).toEqual([
      { field: 'title', message: 'must be a string' },
      { field: 'title', message: 'must be shorter than or equal to 10 characters' },
      { field: 'extra', message: 'is not an accepted field' },
    ]);
  });

  it('keeps a message that does not start with the property name whole', async () => {
    const tree: ValidationError[] = [{ property: 'tags', constraints: { isString: 'each value in tags must be a string' } }];
    expect(flattenValidationErrors(tree)).toEqual([{ field: 'tags', message: 'each value in tags must be a string' }]);
  });
});

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();

  it('passes a valid body through as an instance of the DTO', async () => {
    const out = await pipe.transform({ ...VALID_THING, isActive: 'true' }, body(CreateThing));
    expect(out).toBeInstanceOf(CreateThing);
    expect(out.address).toBeInstanceOf(Address);
    expect(out).toEqual({ ...VALID_THING, isActive: true });
  });

  it('rejects unknown fields (top level and nested) with a 400 AppError listing every bad field', async () => {
    const err = await rejectionOf(
      pipe.transform({ title: 12, address: { city: 'Trondheim', zip: '7010' }, items: [{ name: 'a' }, { name: 3 }], role: 'admin' }, body(CreateThing)),
    );
    expect(err).toBeInstanceOf(AppError);
    expect(err.getStatus()).toBe(400);
    expect(err.code).toBe(ErrorCode.ValidationFailed);
    expect(err.errors).toEqual(
      expect.arrayContaining([
        { field: 'role', message: 'is not an accepted field' },
        { field: 'title', message: 'must be a string' },
        { field: 'address.city', message: 'must be shorter than or equal to 5 characters' },
        { field: 'address.zip', message: 'is not an accepted field' },
        { field: 'items.1.name', message: 'must be a string' },
      ]),
    );
    const fields = new Set(err.errors?.map((e) => e.field));
    expect([...fields].sort()).toEqual(['address.city', 'address.zip', 'items.1.name', 'role', 'title']);
    expect(typeof err.message).toBe('string');
    expect(err.message).toContain('role is not an accepted field');
  });

  it('rejects an array above its maximum size', async () => {
    const err = await rejectionOf(pipe.transform({ ...VALID_THING, items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] }, body(CreateThing)));
    expect(err.getStatus()).toBe(400);
    expect(err.errors).toEqual([{ field: 'items', message: 'must contain no more than 3 elements' }]);
  });

  it('turns page/limit query strings into numbers', async () => {
    const out = await pipe.transform({ page: '3', limit: '25' }, query(ListThings));
    expect(out).toBeInstanceOf(ListThings);
    expect(out.page).toBe(3);
    expect(out.limit).toBe(25);
    expect(pageOffset(out)).toBe(50);
  });

  it('defaults page to 1, limit to 10 and sortOrder to asc', async () => {
    const out = await pipe.transform({}, query(ListThings));
    expect(out).toMatchObject({ page: 1, limit: 10, sortOrder: 'asc' });
    expect(pageOffset(out)).toBe(0);
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ page: '0' }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ sortOrder: 'up' }, 'sortOrder'],
  ])('rejects %j naming %s', async (q, field) => {
    const err = await rejectionOf(pipe.transform(q, query(ListThings)));
    expect(err.getStatus()).toBe(400);
    expect(err.errors?.map((e) => e.field)).toContain(field);
  });

  it('rejects an unknown query parameter on a PageQuery subclass with a 400', async () => {
    const err = await rejectionOf(pipe.transform({ foo: '1' }, query(ListThings)));
    expect(err).toBeInstanceOf(AppError);
    expect(err.getStatus()).toBe(400);
    expect(err.errors).toEqual([{ field: 'foo', message: 'is not an accepted field' }]);
  });

  // `offset` once was a getter of PageQuery; class-transformer assigned to it on a subclass (TypeError -> 500).
  it.each([
    ['a PageQuery subclass', ListThings],
    ['PageQuery itself', PageQuery],
  ])('rejects a client-sent offset on %s with a 400, not a TypeError', async (_name, metatype) => {
    const err = await rejectionOf(pipe.transform({ offset: '5' }, query(metatype)));
    expect(err).toBeInstanceOf(AppError);
    expect(err.getStatus()).toBe(400);
    expect(err.errors).toEqual([{ field: 'offset', message: 'is not an accepted field' }]);
  });

  it('reads a string boolean and a comma list from the query', async () => {
    const out = await pipe.transform({ isExternal: 'false', selectedThingIds: 'a, b,,c' }, query(ListThings));
    expect(out.isExternal).toBe(false);
    expect(out.selectedThingIds).toEqual(['a', 'b', 'c']);
  });

  it('rejects a boolean that is neither true nor false', async () => {
    const err = await rejectionOf(pipe.transform({ isExternal: 'yes' }, query(ListThings)));
    expect(err.errors).toEqual([{ field: 'isExternal', message: 'must be a boolean value' }]);
  });
});

describe('ToBoolean', () => {
  class Flags {
    @ToBoolean()
    @IsBoolean()
    flag!: boolean;
  }
  const pipe = createValidationPipe();

  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
  ])('accepts %j as %j', async (input, expected) => {
    const out = await pipe.transform({ flag: input }, body(Flags));
    expect(out.flag).toBe(expected);
  });

  it.each(['TRUE', '1', 1, 'no'])('rejects %j', async (input) => {
    const err = await rejectionOf(pipe.transform({ flag: input }, body(Flags)));
    expect(err.getStatus()).toBe(400);
    expect(err.errors).toEqual([{ field: 'flag', message: 'must be a boolean value' }]);
  });
});

describe('CommaList', () => {
  class Ids {
    @CommaList()
    @IsUUID('all', { each: true })
    ids!: string[];
  }
  class Tags {
    @CommaList()
    @IsString({ each: true })
    tags!: string[];
  }
  const pipe = createValidationPipe();

  it('splits "a, b,,c" into trimmed items without empties', async () => {
    const out = await pipe.transform({ tags: 'a, b,,c' }, query(Tags));
    expect(out.tags).toEqual(['a', 'b', 'c']);
  });

  it('accepts repeated parameters (an array) the same way', async () => {
    const out = await pipe.transform({ tags: [' a', 'b ', ''] }, query(Tags));
    expect(out.tags).toEqual(['a', 'b']);
  });

  it('validates each item', async () => {
    const err = await rejectionOf(pipe.transform({ ids: '018f3c1e-7d2a-7b3c-9d4e-5f6a7b8c9d0e,12' }, query(Ids)));
    expect(err.getStatus()).toBe(400);
    expect(err.errors?.map((e) => e.field)).toEqual(['ids']);
  });
});

describe('ParseUuidPipe', () => {
  const pipe = new ParseUuidPipe();
  const UUID_V7 = '01890a5d-ac96-774b-bcce-b302099a8057';

  it('accepts a UUIDv7 and answers it lower-cased', async () => {
    expect(pipe.transform(UUID_V7, { type: 'param', data: 'decisionId' })).toBe(UUID_V7);
    expect(pipe.transform(UUID_V7.toUpperCase(), { type: 'param', data: 'decisionId' })).toBe(UUID_V7);
  });

  it('rejects "12" with a 400 naming the parameter', async () => {
    let err: AppError | undefined;
    try {
      pipe.transform('12', { type: 'param', data: 'decisionId' });
    } catch (e) {
      err = e as AppError;
    }
    expect(err).toBeInstanceOf(AppError);
    expect(err?.getStatus()).toBe(400);
    expect(err?.message).toBe('decisionId must be a UUID');
    expect(err?.errors).toEqual([{ field: 'decisionId', message: 'must be a UUID' }]);
  });

  it.each(['', '01890a5d-ac96-774b-bcce-b302099a805', '01890a5d-ac96-774b-bcce-b302099a8057x', 'zz890a5d-ac96-774b-bcce-b302099a8057'])(
    'rejects the malformed %j',
    async (value) => {
      expect(() => pipe.transform(value, { type: 'param', data: 'id' })).toThrow(AppError);
    },
  );
});

class ChangeThing {
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(5)
  name?: string;

  @OptionalNotNull()
  @IsIn(RECORD_STATUSES)
  status?: RecordStatus;

  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isDeleted?: boolean;

  @IsOptional()
  @IsString()
  externalId?: string | null;
}

describe('OptionalNotNull and Trim', () => {
  const pipe = createValidationPipe();

  it('lets an optional field be left out', async () => {
    const out = await pipe.transform({}, body(ChangeThing));
    expect(out).toEqual({});
  });

  it.each(['name', 'status', 'isDeleted'])('refuses %s: null with a 400 naming the field', async (field) => {
    const err = await rejectionOf(pipe.transform({ [field]: null }, body(ChangeThing)));
    expect(err.getStatus()).toBe(400);
    expect(err.errors).toContainEqual({ field, message: 'must not be null' });
  });

  it('still validates a value that is sent', async () => {
    const err = await rejectionOf(pipe.transform({ status: 'DELETED', isDeleted: 'maybe' }, body(ChangeThing)));
    expect(err.errors?.map((e) => e.field).sort()).toEqual(['isDeleted', 'status']);
  });

  it('keeps accepting null on a plainly optional (nullable) field', async () => {
    const out = await pipe.transform({ externalId: null }, body(ChangeThing));
    expect(out).toEqual({ externalId: null });
  });

  it('trims before validating: blanks only are empty, surrounding blanks do not count towards the length', async () => {
    expect(await pipe.transform({ name: '  abcde  ', status: 'ACTIVE', isDeleted: 'false' }, body(ChangeThing))).toEqual({ name: 'abcde', status: 'ACTIVE', isDeleted: false });
    const err = await rejectionOf(pipe.transform({ name: '   ' }, body(ChangeThing)));
    expect(err.errors).toEqual([{ field: 'name', message: 'should not be empty' }]);
  });

  it('leaves values that are not strings to the validators', async () => {
    const err = await rejectionOf(pipe.transform({ name: 12 }, body(ChangeThing)));
    expect(err.errors?.map((e) => e.message)).toContain('must be a string');
  });

  it('names the two record statuses', () => {
    expect(RECORD_STATUSES).toEqual(['ACTIVE', 'INACTIVE']);
  });
});

describe('a long allowed-values message (select, sortBy)', () => {
  const FIELDS = Array.from({ length: 40 }, (_, i) => `someLongFieldName${i}`).concat(['documentUrl', 'uploadedOn']);
  class Listing {
    @OptionalNotNull() @CommaList() @IsArray() @IsIn(FIELDS, { each: true }) select?: string[];
    @OptionalNotNull() @IsIn(FIELDS) sortBy?: string;
  }
  const pipe = createValidationPipe();
  const query = { type: 'query' as const, metatype: Listing, data: '' };

  it('is never cut inside a word, and `allowed` lists every value', async () => {
    const err = await rejectionOf(pipe.transform({ select: 'id,nope', sortBy: 'nope' }, query));
    const errors = (err.errors ?? []) as FieldError[];
    expect(errors.map((e) => e.field)).toEqual(['select', 'sortBy']);
    for (const e of errors) {
      expect(e.allowed).toEqual(FIELDS);
      expect(e.message.length).toBeLessThanOrEqual(MAX_FIELD_MESSAGE);
      expect(e.message).toMatch(/ …$/);
      // What is shown before the ellipsis ends with a whole value of the list.
      const shownValues = e.message.replace(/ …$/, '').split(': ')[1].split(', ');
      for (const v of shownValues) expect(FIELDS).toContain(v);
    }
    expect(err.message).not.toMatch(/someLongFieldName\d*[a-zA-Z]$/);
  });

  it('a short message is left whole; other failures carry no `allowed`', async () => {
    class Small {
      @OptionalNotNull() @IsIn(['asc', 'desc']) sortOrder?: string;
      @OptionalNotNull() @IsString() name?: string;
    }
    const err = await rejectionOf(pipe.transform({ sortOrder: 'up', name: 3 }, { type: 'query', metatype: Small, data: '' }));
    expect(err.errors).toEqual([
      { field: 'sortOrder', message: 'must be one of the following values: asc, desc', allowed: ['asc', 'desc'] },
      { field: 'name', message: 'must be a string' },
    ]);
  });
});

describe('clipAtWord', () => {
  it('ends at the last blank or comma that fits, with an ellipsis; a single word is kept whole', () => {
    expect(clipAtWord('alpha beta gamma', 12)).toBe('alpha beta …');
    expect(clipAtWord('a, bb, ccc, dddd', 10)).toBe('a, bb …');
    expect(clipAtWord('short', 10)).toBe('short');
    expect(clipAtWord('x'.repeat(20), 10)).toBe('x'.repeat(20));
  });
});
