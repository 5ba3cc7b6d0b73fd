import { constants as zlib, deflateRawSync } from 'node:zlib';

/*
 * JSON already serialized, as UTF-8 bytes: a kept answer served again without serializing and
 * encoding megabytes once more, and joined with small pieces made per request (the envelope, a
 * wrapper object). For a client that takes `Content-Encoding: deflate`, each kept part is
 * compressed once, the pieces go as stored blocks, and the answer is one zlib stream whose
 * Adler-32 is combined from the parts' (a deflate stream may be cut into blocks, and blocks that
 * end on a byte boundary and refer to nothing before them can follow each other).
 */

/** Raw deflate blocks of one part (not final, ending on a byte boundary) with the part's Adler-32 and length. */
interface Deflated {
  blocks: Buffer;
  adler: number;
  length: number;
}

/** A part: its bytes, and (kept parts) their deflate blocks once made. */
interface Part {
  bytes: Buffer;
  kept: boolean;
  deflated?: Deflated;
}

export class JsonText {
  private constructor(private readonly parts: readonly Part[]) {}

  /** JSON to keep and serve again (compressed at most once). */
  static of(json: string | Buffer): JsonText {
    return new JsonText([{ bytes: typeof json === 'string' ? Buffer.from(json) : json, kept: true }]);
  }

  /** Pieces in order: strings are small JSON fragments of this answer, JsonTexts are taken as they are (their kept parts shared). */
  static join(pieces: readonly (string | JsonText)[]): JsonText {
    return new JsonText(pieces.flatMap((p) => (typeof p === 'string' ? [{ bytes: Buffer.from(p), kept: false }] : p.parts)));
  }

  get byteLength(): number {
    return this.parts.reduce((n, p) => n + p.bytes.length, 0);
  }

  /** The JSON as is. */
  bytes(): Buffer {
    return Buffer.concat(this.parts.map((p) => p.bytes));
  }

  /** The JSON as a zlib stream (Content-Encoding: deflate). */
  deflated(): Buffer {
    const parts = this.parts.map((p) => (p.kept ? (p.deflated ??= deflatePart(p.bytes)) : storedPart(p.bytes)));
    let adler = 1; // of nothing
    for (const p of parts) adler = adler32Combine(adler, p.adler, p.length);
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(adler >>> 0);
    return Buffer.concat([ZLIB_HEADER, ...parts.map((p) => p.blocks), FINAL_EMPTY_BLOCK, trailer]);
  }
}

const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);
/** An empty stored block marked final: the stream's end after parts that are all not final. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

function deflatePart(bytes: Buffer): Deflated {
  // Compressed on its own (no reference reaches before the part), ending with a sync flush (byte boundary, not final).
  const blocks = deflateRawSync(bytes, { level: 6, finishFlush: zlib.Z_SYNC_FLUSH });
  return { blocks, adler: adler32(bytes), length: bytes.length };
}

/** A small piece as stored (uncompressed) blocks: no zlib stream per request. Header byte 0: not final, stored. */
function storedPart(bytes: Buffer): Deflated {
  const blocks: Buffer[] = [];
  let at = 0;
  do {
    const chunk = bytes.subarray(at, at + 0xffff); // a stored block holds 65,535 bytes at most
    const header = Buffer.alloc(5);
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
    at += 0xffff;
  } while (at < bytes.length);
  return { blocks: Buffer.concat(blocks), adler: adler32(bytes), length: bytes.length };
}

const ADLER_BASE = 65521;

function adler32(bytes: Buffer): number {
  let a = 1;
  let b = 0;
  // 5552 bytes at most between reductions (zlib's NMAX) keep the sums small.
  for (let i = 0; i < bytes.length; ) {
    const end = Math.min(i + 5552, bytes.length);
    for (; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  return b * 65536 + a;
}

/** The Adler-32 of two parts one after the other, from each part's (zlib's adler32_combine). */
function adler32Combine(adler1: number, adler2: number, length2: number): number {
  const rem = length2 % ADLER_BASE;
  const a1 = adler1 % 65536;
  const b1 = Math.floor(adler1 / 65536);
  const a2 = adler2 % 65536;
  const b2 = Math.floor(adler2 / 65536);
  const a = (a1 + a2 + ADLER_BASE - 1) % ADLER_BASE;
  const b = (((rem * a1) % ADLER_BASE) + b1 + b2 + ADLER_BASE - rem) % ADLER_BASE;
  return b * 65536 + a;
}

/** Whether the client takes `Content-Encoding: deflate` (listed, and not with q=0). */
export function acceptsDeflate(header: string | string[] | undefined): boolean {
  if (!header) return false;
  for (const item of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    if (name.trim() !== 'deflate') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}
