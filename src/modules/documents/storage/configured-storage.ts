import path from 'node:path';
import type { DocumentStorage } from './document-storage';
import { LocalDiskStorage } from './local-disk-storage';
import { s3StorageFor } from './s3-storage';
import type { DocumentStorageConfig } from '../settings';

/**
 * The configured document storage, shared by the server and the CLI: an S3-compatible bucket when
 * DOCUMENT_STORAGE=s3 (several machines), else the local disk under DATA_DIR (one machine).
 */
export function documentStorageFor(config: { dataDir: string; documentStorage: DocumentStorageConfig }): DocumentStorage {
  const settings = config.documentStorage;
  return settings.kind === 's3' ? s3StorageFor(settings) : new LocalDiskStorage(path.join(config.dataDir, 'documents'));
}
