import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsString, ValidateNested } from 'class-validator';
import { frameworkErrorBody } from './errors';
import { MAX_BODY_DEPTH, inputProblems } from './request-input';
import { MAX_LISTED_ERRORS, capErrors, oversizedArrays } from './validation';

describe('inputProblems: NUL characters and nesting, anywhere in a request', () => {
  it('names every string holding \\u0000, as a dotted path, in bodies, queries and keys', () => {
    expect(inputProblems({ roleName: 'a\u0000b', ok: 'fine', nested: { list: ['x', 'y\u0000'] } })).toEqual([
      { field: 'roleName', message: 'must not contain the NUL character (\\u0000)' },
      { field: 'nested.list.1', message: 'must not contain the NUL character (\\u0000)' },
    ]);
    expect(inputProblems({ search: 'a\u0000b' })).toEqual([{ field: 'search', message: 'must not contain the NUL character (\\u0000)' }]);
    expect(inputProblems({ ['bad\u0000key']: 1 })).toEqual([{ field: 'bad\u0000key', message: 'must not contain the NUL character (\\u0000)' }]);
    expect(inputProblems('top\u0000')).toEqual([{ field: 'body', message: 'must not contain the NUL character (\\u0000)' }]);
    expect(inputProblems({ n: 1, b: true, z: null, s: 'plain' })).toEqual([]);
  });

  it('refuses a body nested deeper than the limit, without recursion (no stack overflow at any depth)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const problems = inputProblems(deep);
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toBe(`is nested more than ${MAX_BODY_DEPTH} levels deep`);
    let fine: unknown = 'leaf';
    for (let i = 0; i < MAX_BODY_DEPTH - 1; i++) fine = { a: fine };
    expect(inputProblems(fine)).toEqual([]);
  });

  it('stops collecting after a bounded number of problems', () => {
    const many = Array.from({ length: 10_000 }, () => '\u0000');
    expect(inputProblems(many).length).toBeLessThanOrEqual(MAX_LISTED_ERRORS + 1);
  });
});

describe('capErrors: an error answer stays small', () => {
  it('lists the first 50 problems and counts the rest in the message', () => {
    const fields = Array.from({ length: 5000 }, (_, i) => ({ field: `items.${i}.x`, message: 'must be a string' }));
    const { shown, message } = capErrors(fields);
    expect(shown).toHaveLength(MAX_LISTED_ERRORS);
    expect(message.endsWith('; and 4950 more problems')).toBe(true);
    expect(JSON.stringify({ shown, message }).length).toBeLessThan(10_000);
    expect(capErrors([{ field: 'a', message: 'is bad' }])).toEqual({ shown: [{ field: 'a', message: 'is bad' }], message: 'a is bad' });
  });
});

class Cell {
  @IsInt() x: number;
  @IsArray() @ArrayMaxSize(2) @IsString({ each: true }) tags: string[];
}

class Layout {
  @IsArray() @ArrayMaxSize(3) @ValidateNested({ each: true }) @Type(() => Cell) cells: Cell[];
  @IsArray() @ArrayMaxSize(1) @IsString({ each: true }) names: string[];
}

describe('oversizedArrays: sizes are checked before any item', () => {
  it('refuses an array over its maximum by its count alone, naming it', () => {
    const cells = Array.from({ length: 10_000 }, () => ({ x: 'not a number' }));
    expect(oversizedArrays(Layout, { cells, names: ['a'] })).toEqual([{ field: 'cells', message: 'must contain no more than 3 elements' }]);
  });

  it('follows nested DTOs within bounds and names nested arrays by their path', () => {
    expect(oversizedArrays(Layout, { cells: [{ x: 1, tags: ['a'] }, { x: 2, tags: ['a', 'b', 'c'] }], names: ['a', 'b'] })).toEqual([
      { field: 'names', message: 'must contain no more than 1 elements' },
      { field: 'cells.1.tags', message: 'must contain no more than 2 elements' },
    ]);
    expect(oversizedArrays(Layout, { cells: [{ x: 1, tags: [] }], names: [] })).toEqual([]);
    expect(oversizedArrays(Layout, null)).toEqual([]);
  });
});

describe('frameworkErrorBody: the router refusals in the project error body', () => {
  it('answers a 414 for a path parameter over the limit, without echoing a huge path', () => {
    const body = frameworkErrorBody({ code: 'FST_ERR_MAX_PARAM_LENGTH', statusCode: 414 }, `/settings/v1/positions/${'a'.repeat(5000)}?x=1`, 'req-1');
    expect(body).toMatchObject({ statusCode: 414, error: 'URI Too Long', message: 'A path parameter is longer than 100 characters', requestId: 'req-1' });
    expect(body.path.length).toBeLessThanOrEqual(200);
    expect(frameworkErrorBody({ code: 'FST_ERR_BAD_URL', statusCode: 400 }, '/x/%E0%A4%A', 'r')).toMatchObject({ statusCode: 400, path: '/x/%E0%A4%A' });
  });
});
