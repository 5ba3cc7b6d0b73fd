import { AppError, ErrorCode } from './errors';
import { missingIds, missingIdsError } from './missing-ids';

const A = '0190a5d0-0000-7000-8000-00000000000a';
const B = '0190a5d0-0000-7000-8000-00000000000b';
const C = '0190a5d0-0000-7000-8000-00000000000c';

describe('missingIds', () => {
  it('answers the ids not found, lower case, each once, in the order asked', () => {
    expect(missingIds([C, A.toUpperCase(), B, C], [B.toUpperCase()])).toEqual([C, A]);
    expect(missingIds([A, B], [A, B])).toEqual([]);
    expect(missingIds([], [A])).toEqual([]);
  });
});

describe('missingIdsError', () => {
  it('is a 404 naming every missing id, with errors[] naming the request field and index of each', () => {
    const err = missingIdsError({ what: 'Group', field: 'groupIds', asked: [A, B.toUpperCase(), C], missing: [B, C], suffix: '; nothing was changed' });
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe(ErrorCode.NotFound);
    expect(err.getStatus()).toBe(404);
    expect(err.message).toBe(`Groups not found: ${B}, ${C}; nothing was changed`);
    expect(err.errors).toEqual([
      { field: 'groupIds.1', message: `Group ${B} not found` },
      { field: 'groupIds.2', message: `Group ${C} not found` },
    ]);
  });

  it('speaks of one id in the singular', () => {
    const err = missingIdsError({ what: 'Parent group', field: 'addParentGroupIds', asked: [A], missing: [A] });
    expect(err.message).toBe(`Parent group not found: ${A}`);
    expect(err.errors).toEqual([{ field: 'addParentGroupIds.0', message: `Parent group ${A} not found` }]);
  });
});
