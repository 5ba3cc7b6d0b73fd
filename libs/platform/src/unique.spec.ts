import { AppError, ErrorCode } from '@ddm/contracts';
import { TenantUniqueName, refuseTakenName, uniqueViolationAs, violatedUniqueConstraint, writeUniqueName } from './unique';

const NAME: TenantUniqueName = { table: 'settings.things', column: 'thing_name', index: 'things_name', taken: (n) => `A thing named "${n}" already exists` };

/** A unique violation as TypeORM throws it (QueryFailedError keeps the driver's error). */
const violation = (constraint: string) => Object.assign(new Error('duplicate key'), { driverError: { code: '23505', constraint } });

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('refuseTakenName', () => {
  it('is a 409 with the resource message when the name is taken', async () => {
    const err = await rejectionOf(refuseTakenName({ query: async () => [{ '?column?': 1 }] }, NAME, 'T', 'Alpha', null));
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(ErrorCode.Conflict);
    expect((err as AppError).message).toBe('A thing named "Alpha" already exists');
  });
});

describe('uniqueViolationAs', () => {
  it('answers the write when it succeeds', async () => {
    await expect(uniqueViolationAs({ things_name: 'taken' }, async () => 7)).resolves.toBe(7);
  });

  it('turns a violation of a named constraint (raw or wrapped) into its 409', async () => {
    for (const err of [violation('things_name'), Object.assign(new Error('dup'), { code: '23505', constraint: 'things_name' })]) {
      const out = await rejectionOf(uniqueViolationAs({ things_name: 'taken' }, () => Promise.reject(err)));
      expect(out).toBeInstanceOf(AppError);
      expect((out as AppError).getStatus()).toBe(409);
      expect((out as AppError).message).toBe('taken');
    }
  });

  it('lets other constraints and other errors through unchanged', async () => {
    const other = violation('things_pkey');
    expect(await rejectionOf(uniqueViolationAs({ things_name: 'taken' }, () => Promise.reject(other)))).toBe(other);
    const fk = Object.assign(new Error('fk'), { code: '23503', constraint: 'things_name' });
    expect(await rejectionOf(uniqueViolationAs({ things_name: 'taken' }, () => Promise.reject(fk)))).toBe(fk);
  });

  it('writeUniqueName uses the name index and message', async () => {
    const out = await rejectionOf(writeUniqueName(NAME, 'Beta', () => Promise.reject(violation('things_name'))));
    expect((out as AppError).message).toBe('A thing named "Beta" already exists');
  });
});

describe('violatedUniqueConstraint', () => {
  it('names the constraint of a unique violation only', () => {
    expect(violatedUniqueConstraint(violation('x'))).toBe('x');
    expect(violatedUniqueConstraint(new Error('nope'))).toBeNull();
    expect(violatedUniqueConstraint(null)).toBeNull();
  });
});
