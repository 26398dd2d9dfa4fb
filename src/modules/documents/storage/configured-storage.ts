import path from 'node:path';
import type { DocumentStorage } from './document-storage';
import { LocalDiskStorage } from './local-disk-storage';
import type { DocumentStorageConfig } from '../settings';

/**
 * The configured document storage, shared by the server and the CLI: an S3-compatible bucket when
 * DOCUMENT_STORAGE=s3 (several machines), else the local disk under DATA_DIR (one machine).
 */
export async function documentStorageFor(config: {
  dataDir: string;
  documentStorage: DocumentStorageConfig;
}): Promise<DocumentStorage> {
  const settings = config.documentStorage;
  if (settings.kind !== 's3') return new LocalDiskStorage(path.join(config.dataDir, 'documents'));
  // The AWS SDK is loaded only where a bucket is configured: it is a third of a second of every
  // start (and of every test file's) on machines that keep documents on disk.
  const { s3StorageFor } = await import('./s3-storage.js');
  return s3StorageFor(settings);
}
