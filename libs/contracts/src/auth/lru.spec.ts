import { Lru } from './lru';

describe('Lru', () => {
  it('answers what was set, and undefined for a missing key', async () => {
    const lru = new Lru<string, number>(3);
    lru.set('a', 1);
    expect(lru.get('a')).toBe(1);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.size).toBe(1);
  });

  it('evicts the least recently set key beyond its maximum', async () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.size).toBe(2);
    expect(lru.get('a')).toBeUndefined();
    expect([...lru.entries()]).toEqual([
      ['b', 2],
      ['c', 3],
    ]);
  });

  it('keeps a key that was read recently and evicts the oldest unread one', async () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('c')).toBe(3);
  });

  it('replaces the value of an existing key without growing, and counts it as recent', async () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('a', 10);
    expect(lru.size).toBe(2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(10);
    expect(lru.get('b')).toBeUndefined();
  });

  it('never holds more than its maximum under many writes', async () => {
    const lru = new Lru<number, number>(100);
    for (let i = 0; i < 1000; i++) lru.set(i, i);
    expect(lru.size).toBe(100);
    expect(lru.get(899)).toBeUndefined();
    expect(lru.get(900)).toBe(900);
    expect(lru.get(999)).toBe(999);
  });

  it('deletes one key and clears all', async () => {
    const lru = new Lru<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.delete('a');
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(1);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.get('b')).toBeUndefined();
  });
});
