/** The rules of uploaded files that need no I/O; unit-tested in files.spec.ts. */

/** The largest file a request may carry. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** The PostgreSQL store keeps a file as rows of at most this many bytes (one in memory at a time). */
export const CHUNK_BYTES = 1024 * 1024;
export const FILE_NAME_MAX = 255;

/** The media types a document's file may have: PDF, Office documents, images, text. */
export const ALLOWED_MEDIA_TYPES: readonly string[] = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'text/plain',
  'text/csv',
  'text/markdown',
];

/** The media type without parameters, lower case (`Text/Plain; charset=utf-8` -> `text/plain`). */
export function bareMediaType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

export function isAllowedMediaType(type: string): boolean {
  return ALLOWED_MEDIA_TYPES.includes(bareMediaType(type));
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
