import { ArgumentMetadata } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DatedPageQuery, ParseIsoDateTimePipe, toInstant } from './validation';

describe('toInstant (every ISO 8601 date-time the API takes: date filters, GET /decisions/{id}/{revisionDate})', () => {
  const tz = process.env.TZ;
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it('reads a date-time without an offset as UTC, whatever the local time zone', () => {
    for (const zone of ['UTC', 'Pacific/Auckland', 'America/Los_Angeles']) {
      process.env.TZ = zone;
      expect(toInstant('2026-01-31T12:00:00')).toBe('2026-01-31T12:00:00.000Z');
      expect(toInstant('2026-01-31T12:00:00.250')).toBe('2026-01-31T12:00:00.250Z');
      expect(toInstant('2026-01-31T12:00')).toBe('2026-01-31T12:00:00.000Z');
      expect(toInstant('2026-01-31')).toBe('2026-01-31T00:00:00.000Z');
    }
  });

  it('keeps an offset or Z', () => {
    expect(toInstant('2026-01-31T12:00:00Z')).toBe('2026-01-31T12:00:00.000Z');
    expect(toInstant('2026-01-31T14:00:00+02:00')).toBe('2026-01-31T12:00:00.000Z');
    expect(toInstant('2026-01-31T06:30:00-05:30')).toBe('2026-01-31T12:00:00.000Z');
  });

  it('drops digits past the millisecond (the views show milliseconds)', () => {
    expect(toInstant('2026-01-31T12:00:00.123999Z')).toBe('2026-01-31T12:00:00.123Z');
    expect(toInstant('2026-01-31T12:00:00.123999')).toBe('2026-01-31T12:00:00.123Z');
  });

  it('names no instant for what is not an ISO 8601 date-time or no real date', () => {
    for (const bad of ['2026-02-30T00:00:00Z', '31/01/2026', 'yesterday', '2026-01-31 12:00:00', '20260131T120000Z', '']) expect(toInstant(bad)).toBeNull();
  });

  it('the date filters of every list arrive canonical; a bad one is refused naming it', async () => {
    const q = plainToInstance(DatedPageQuery, { createdAtStart: '2026-01-31T14:00:00+02:00', updatedAtEnd: '2026-01-31T12:00:00.123999' });
    expect(await validate(q)).toEqual([]);
    expect([q.createdAtStart, q.updatedAtEnd]).toEqual(['2026-01-31T12:00:00.000Z', '2026-01-31T12:00:00.123Z']);
    const bad = await validate(plainToInstance(DatedPageQuery, { createdAtEnd: '2026-02-30' }));
    expect(bad.map((e) => e.property)).toEqual(['createdAtEnd']);
  });

  it('the path parameter pipe answers the canonical instant, or a 400 naming the parameter', () => {
    const pipe = new ParseIsoDateTimePipe();
    const meta = { type: 'param', data: 'revisionDate' } as ArgumentMetadata;
    expect(pipe.transform('2026-01-31T12:00:00.123999', meta)).toBe('2026-01-31T12:00:00.123Z');
    expect(() => pipe.transform('2026-02-30', meta)).toThrow(/revisionDate must be an ISO 8601 date-time/);
  });
});
