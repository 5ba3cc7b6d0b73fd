/** The rules of uploaded files that need no I/O; unit-tested in files.spec.ts. */

/** The largest file a request may carry. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** The PostgreSQL store keeps a file as rows of at most this many bytes (one in memory at a time). */
export const CHUNK_BYTES = 1024 * 1024;
export const FILE_NAME_MAX = 255;

/**
 * How the content of a file declared as a media type is checked: the types `file-type` may detect
 * from its bytes, or `text` for the formats that have no signature (the content must then be text,
 * see isText). Word, Excel and PowerPoint 97-2003 files are all OLE compound files: their bytes say
 * no more than that. A type outside this table cannot be accepted (the service could not check it).
 */
export const CONTENT_RULES: Readonly<Record<string, { detected: readonly string[] } | 'text'>> = {
  'application/pdf': { detected: ['application/pdf'] },
  'application/msword': { detected: ['application/x-cfb'] },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { detected: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'] },
  'application/vnd.ms-excel': { detected: ['application/x-cfb'] },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { detected: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] },
  'application/vnd.ms-powerpoint': { detected: ['application/x-cfb'] },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': { detected: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'] },
  'application/vnd.oasis.opendocument.text': { detected: ['application/vnd.oasis.opendocument.text'] },
  'application/vnd.oasis.opendocument.spreadsheet': { detected: ['application/vnd.oasis.opendocument.spreadsheet'] },
  'application/vnd.oasis.opendocument.presentation': { detected: ['application/vnd.oasis.opendocument.presentation'] },
  'application/rtf': { detected: ['application/rtf'] },
  'image/png': { detected: ['image/png'] },
  'image/jpeg': { detected: ['image/jpeg'] },
  'image/gif': { detected: ['image/gif'] },
  'image/webp': { detected: ['image/webp'] },
  'image/svg+xml': 'text',
  'text/plain': 'text',
  'text/csv': 'text',
  'text/markdown': 'text',
};

/** The media types a document's file may have unless FILES_ALLOWED_TYPES narrows them: every type the service can check. */
export const ALLOWED_MEDIA_TYPES: readonly string[] = Object.keys(CONTENT_RULES);

/** What a client sends when it does not know the type: the type detected from the content is taken. */
export const UNKNOWN_MEDIA_TYPE = 'application/octet-stream';

/** How much of the start of a file its type is detected from (an Office file's part list may come after its first parts). */
export const SAMPLE_BYTES = 1024 * 1024;

/** What `file-type` may detect in a text file: XML is text. */
const TEXT_DETECTIONS: readonly (string | undefined)[] = [undefined, 'application/xml'];

/** The media type without parameters, lower case (`Text/Plain; charset=utf-8` -> `text/plain`). */
export function bareMediaType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

export function isAllowedMediaType(type: string, allowed: readonly string[] = ALLOWED_MEDIA_TYPES): boolean {
  return allowed.includes(bareMediaType(type));
}

/**
 * Whether the start of a file is text: UTF-8 (ASCII included, a BOM allowed) without NUL or other
 * control characters than tab, line feed, form feed and carriage return. `complete`: the sample is
 * the whole file (otherwise a character cut at its end is not held against it).
 */
export function isText(sample: Buffer, complete: boolean): boolean {
  for (const byte of sample) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/** The verdict on an upload: the type it is stored as, or why it is refused (415, naming the field "file"). */
export type ContentVerdict = { type: string } | { refused: string; problem: string };

/**
 * Checks an upload's declared media type against the allow-list and against its content: `detected`
 * is what `file-type` found in `sample` (the start of the file; `complete` when it is the whole file).
 * A declared type that the content contradicts is refused (bytes of a Windows program declared as a
 * PDF); so is a type outside `allowed`. Formats without a signature (text, CSV, Markdown, SVG) must be
 * text in which no binary signature is found, and SVG must hold an `<svg` element. A file declared
 * as application/octet-stream (a client that does not know) is stored as the type detected, when
 * that type is allowed.
 */
export function judgeContent(declared: string, detected: string | undefined, sample: Buffer, complete: boolean, allowed: readonly string[]): ContentVerdict {
  const type = bareMediaType(declared);
  const accepted = `accepted: ${allowed.join(', ')}`;
  if (type === UNKNOWN_MEDIA_TYPE || type === '') {
    if (detected && allowed.includes(detected) && CONTENT_RULES[detected] !== 'text') return { type: detected };
    return { refused: `The type of the file could not be told from its content (${detected ? `it is ${detected}` : 'no known signature'}); send its media type; ${accepted}`, problem: 'has a type that is not accepted' };
  }
  const rule = allowed.includes(type) ? CONTENT_RULES[type] : undefined;
  if (!rule) return { refused: `Files of type "${type}" are not accepted; ${accepted}`, problem: `has a type that is not accepted ("${type}")` };
  const matches =
    rule === 'text'
      ? TEXT_DETECTIONS.includes(detected) && isText(sample, complete) && (type !== 'image/svg+xml' || /<svg[\s>]/i.test(sample.toString('utf8')))
      : detected !== undefined && rule.detected.includes(detected);
  if (matches) return { type };
  const found = detected ?? (rule === 'text' ? 'not text' : 'of no known type');
  return { refused: `The content of the file does not match its declared type "${type}": its bytes are ${found}`, problem: `content is ${found}, not ${type}` };
}

/**
 * A file name as it is stored and offered for download: the last path segment, without control
 * characters or quotes, at most 255 characters; "file" when nothing is left.
 */
export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const clean = last.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, FILE_NAME_MAX);
  return clean || 'file';
}

/** The Content-Disposition of a download: an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
