import type { EnvReader } from '../../kernel/settings/env-reader';

/** Where document bytes live: the local disk under DATA_DIR (one machine) or an S3-compatible bucket. */
export type DocumentStorageConfig = { kind: 'disk' } | S3StorageConfig;

export interface S3StorageConfig {
  kind: 's3';
  bucket: string;
  /** Put before every object key ("documents/"), so one bucket can serve several environments. */
  prefix: string;
  /** For S3-compatible stores (MinIO, R2 ...); AWS S3 itself needs none. */
  endpoint?: string;
  region: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO and most emulators). */
  forcePathStyle: boolean;
  /** Absent: the AWS SDK's default chain (environment, shared files, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The documents' settings, fields of the service's Config. */
export interface DocumentSettings {
  /** Unattached documents older than this are purged with their bytes. */
  documentDraftTtlHours: number;
  /** How often the server runs the draft purge; 0 turns the periodic job off. */
  documentPurgeIntervalSeconds: number;
  /** Unattached documents a company may hold at once: bounds the storage one partner can fill. */
  maxDraftsPerCompany: number;
  documentStorage: DocumentStorageConfig;
}

/** How long drafts live (read with the other lifetimes, before the storage: problems come in reading order). */
export function documentDraftsConfig(read: EnvReader): Pick<DocumentSettings, 'documentDraftTtlHours' | 'documentPurgeIntervalSeconds'> {
  return {
    documentDraftTtlHours: read.integer('DOCUMENT_DRAFT_TTL_HOURS', 24, 1, 24 * 365),
    documentPurgeIntervalSeconds: read.integer('DOCUMENT_PURGE_INTERVAL_SECONDS', 3600, 0, 86400),
  };
}

/** How many drafts a company may hold, and where the bytes live. */
export function documentStoreConfig(read: EnvReader): Pick<DocumentSettings, 'maxDraftsPerCompany' | 'documentStorage'> {
  return {
    maxDraftsPerCompany: read.integer('DOCUMENT_MAX_DRAFTS_PER_COMPANY', 500, 0, 1_000_000),
    documentStorage: documentStorageConfig(read),
  };
}

function documentStorageConfig(read: EnvReader): DocumentStorageConfig {
  if (read.oneOf('DOCUMENT_STORAGE', 'disk', ['disk', 's3'] as const) === 'disk') return { kind: 'disk' };
  const bucket = read.optional('S3_BUCKET');
  if (bucket === undefined) read.problems.push('S3_BUCKET must be set when DOCUMENT_STORAGE=s3');
  const accessKeyId = read.optional('S3_ACCESS_KEY_ID');
  const secretAccessKey = read.optional('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    read.problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)');
  }
  const prefix = read.string('S3_PREFIX', '');
  if (prefix.startsWith('/')) read.problems.push(`S3_PREFIX must not start with "/" (got "${prefix}")`);
  return {
    kind: 's3',
    bucket: bucket ?? '',
    prefix,
    endpoint: read.url('S3_ENDPOINT', ['http:', 'https:']),
    region: read.string('S3_REGION', 'us-east-1'),
    forcePathStyle: read.boolean('S3_FORCE_PATH_STYLE', false),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}
