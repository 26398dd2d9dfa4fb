import { z } from 'zod';
import {
  anyText,
  flag,
  integer,
  oneOf,
  readEnv,
  textSetOr,
  url,
  type EnvReading,
} from '../../kernel/settings/env-schema';

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

const draftsEnv = z.object({
  DOCUMENT_DRAFT_TTL_HOURS: integer(1, 24 * 365).default(24),
  DOCUMENT_PURGE_INTERVAL_SECONDS: integer(0, 86400).default(3600),
});

/** How long drafts live (read with the other lifetimes, before the storage: problems come in reading order). */
export function documentDraftsConfig(
  reading: EnvReading,
): Pick<DocumentSettings, 'documentDraftTtlHours' | 'documentPurgeIntervalSeconds'> {
  const env = readEnv(draftsEnv, reading);
  return {
    documentDraftTtlHours: env.DOCUMENT_DRAFT_TTL_HOURS,
    documentPurgeIntervalSeconds: env.DOCUMENT_PURGE_INTERVAL_SECONDS,
  };
}

const storeEnv = z.object({
  DOCUMENT_MAX_DRAFTS_PER_COMPANY: integer(0, 1_000_000).default(500),
  DOCUMENT_STORAGE: oneOf(['disk', 's3']).default('disk'),
});

/** S3_*, read when DOCUMENT_STORAGE=s3. */
const s3Env = z.object({
  S3_BUCKET: textSetOr('must be set when DOCUMENT_STORAGE=s3'),
  S3_ACCESS_KEY_ID: anyText().optional(),
  S3_SECRET_ACCESS_KEY: anyText().optional(),
  S3_PREFIX: anyText()
    .refine((prefix) => !prefix.startsWith('/'), {
      error: (issue) => `must not start with "/" (got "${String(issue.input)}")`,
    })
    .default(''),
  S3_ENDPOINT: url(['http:', 'https:']).optional(),
  S3_REGION: anyText().default('us-east-1'),
  S3_FORCE_PATH_STYLE: flag().default(false),
});

/** How many drafts a company may hold, and where the bytes live. */
export function documentStoreConfig(
  reading: EnvReading,
): Pick<DocumentSettings, 'maxDraftsPerCompany' | 'documentStorage'> {
  const env = readEnv(storeEnv, reading);
  return {
    maxDraftsPerCompany: env.DOCUMENT_MAX_DRAFTS_PER_COMPANY,
    documentStorage: env.DOCUMENT_STORAGE === 'disk' ? { kind: 'disk' } : s3StorageConfig(reading),
  };
}

function s3StorageConfig(reading: EnvReading): S3StorageConfig {
  const env = readEnv(s3Env, reading);
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    reading.problems.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)',
    );
  }
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    prefix: env.S3_PREFIX,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}
