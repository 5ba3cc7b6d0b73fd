import { inflateSync } from 'node:zlib';
import { JsonText } from './json-text';

describe('JsonText', () => {
  const kept = JsonText.of(JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `Décision ${i % 50}` })) }));

  it('joins small pieces around kept JSON: as is and as one zlib stream (zlib checks the combined Adler-32)', () => {
    const answer = JsonText.join(['{"first":', kept, ',"second":', kept, ',"empty":""', '}']);
    const expected = JSON.stringify({ first: JSON.parse(kept.bytes().toString()), second: JSON.parse(kept.bytes().toString()), empty: '' });
    expect(answer.bytes().toString()).toBe(expected);
    expect(answer.byteLength).toBe(Buffer.byteLength(expected));
    expect(inflateSync(answer.deflated()).toString()).toBe(expected);
    // Again, with the kept part's blocks already made.
    expect(inflateSync(JsonText.join(['[', kept, ']']).deflated()).toString()).toBe(`[${kept.bytes().toString()}]`);
  });

  it('sends a piece over 65,535 bytes as several stored blocks, and an empty answer as a valid stream', () => {
    const big = `"${'x'.repeat(150_000)}"`;
    expect(inflateSync(JsonText.join(['[', big, ']']).deflated()).toString()).toBe(`[${big}]`);
    expect(inflateSync(JsonText.join(['']).deflated()).toString()).toBe('');
  });
});
