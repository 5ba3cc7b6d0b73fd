import { StreamRegistry } from './stream.rules';

describe('the streams of a person across replicas', () => {
  it('the oldest beyond the limit are over; a removed or silent one no longer counts', () => {
    const r = new StreamRegistry(2, 1_000);
    expect(r.seen('u', 'a', 1, 0)).toEqual([]);
    expect(r.seen('u', 'b', 2, 0)).toEqual([]);
    expect(r.seen('v', 'x', 0, 0)).toEqual([]); // another person's
    expect(r.seen('u', 'c', 3, 0)).toEqual(['a']);
    expect(r.count('u')).toBe(2);
    // A refresh of an existing stream changes nothing.
    expect(r.seen('u', 'b', 2, 500)).toEqual([]);
    r.remove('u', 'b');
    expect(r.seen('u', 'd', 4, 600)).toEqual([]);
    // c was not announced again within 1 s: its replica went away; it no longer counts.
    expect(r.seen('u', 'e', 5, 1_200)).toEqual([]);
    expect(r.count('u')).toBe(2);
    // The same opening time: the lower id is older (every replica decides alike).
    const one = new StreamRegistry(1, 1_000);
    expect(one.seen('w', 'b', 1, 0)).toEqual([]);
    expect(one.seen('w', 'a', 1, 0)).toEqual(['a']);
  });
});
