import { ConfigError, Env, envFlag, envUrl } from '@ddm/platform';
import { ALLOWED_MEDIA_TYPES, CONTENT_RULES } from './file.rules';

/** Where uploaded files live: FILES_STORAGE=postgres (the default) or s3. */
export type FilesStorage = 'postgres' | 's3';

export interface FilesS3Options {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, Ceph, ...); none for AWS itself. */
  endpoint: string | null;
  forcePathStyle: boolean;
  /** Static credentials; none: the SDK's default chain (the pod's IAM role, the environment). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Object key prefix, e.g. "files/". */
  prefix: string;
}

export interface FilesOptions {
  storage: FilesStorage;
  s3: FilesS3Options | null;
  /** The media types an upload may have (FILES_ALLOWED_TYPES), each one whose content the service can check. */
  allowedTypes: readonly string[];
}

export const FILES_OPTIONS = Symbol('FILES_OPTIONS');

/**
 * FILES_ALLOWED_TYPES: the media types an upload may have, comma-separated; unset or empty, every
 * type the service can check against the content (CONTENT_RULES). A type it cannot check stops the
 * service: accepting it would store whatever bytes a client labels so.
 */
export function allowedTypesOf(env: Env): readonly string[] {
  const raw = env.FILES_ALLOWED_TYPES?.trim();
  if (!raw) return ALLOWED_MEDIA_TYPES;
  const types = [...new Set(raw.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean))];
  const unknown = types.filter((t) => !Object.prototype.hasOwnProperty.call(CONTENT_RULES, t));
  if (unknown.length) throw new ConfigError(`FILES_ALLOWED_TYPES holds ${unknown.map((t) => `"${t}"`).join(', ')}, whose content the service cannot check; it may hold: ${ALLOWED_MEDIA_TYPES.join(', ')}`);
  return types;
}

/** Reads and checks the file settings; a wrong value stops the service with a message naming the variable. */
export function loadFilesOptions(env: Env): FilesOptions {
  const allowedTypes = allowedTypesOf(env);
  const storage = (env.FILES_STORAGE || 'postgres') as FilesStorage;
  if (storage !== 'postgres' && storage !== 's3') throw new ConfigError(`FILES_STORAGE must be postgres or s3 (got "${env.FILES_STORAGE}")`);
  if (storage === 'postgres') return { storage, s3: null, allowedTypes };
  const bucket = env.FILES_S3_BUCKET ?? '';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`FILES_S3_BUCKET must be a bucket name (3 to 63 lower-case letters, digits, dots, hyphens) with FILES_STORAGE=s3 (got "${bucket}")`);
  const accessKeyId = env.FILES_S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.FILES_S3_SECRET_ACCESS_KEY || null;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY go together');
  return {
    storage,
    allowedTypes,
    s3: {
      bucket,
      region: env.FILES_S3_REGION || 'us-east-1',
      endpoint: env.FILES_S3_ENDPOINT ? envUrl(env, 'FILES_S3_ENDPOINT', ['http', 'https']) : null,
      forcePathStyle: envFlag(env, 'FILES_S3_FORCE_PATH_STYLE', Boolean(env.FILES_S3_ENDPOINT)),
      accessKeyId,
      secretAccessKey,
      prefix: env.FILES_S3_PREFIX ?? 'files/',
    },
  };
}
