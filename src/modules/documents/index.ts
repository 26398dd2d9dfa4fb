import type { DocumentStorage } from './storage/document-storage';
import type { PdfCheckPool } from './pdf-checks';

/** The documents module's face: the document handlers, their storage, the PDF checks and the draft purge; only what the composition, the CLI and other modules use. */
export {
  companyDocumentsLocked,
  companyDocumentsValues,
  documentsAttachedUpdate,
  documentsAttachedValues,
} from './attach-statement';
export { purgeExpiredDrafts } from './documents';
export { attachDocument } from './document-attachment';
export { type DraftPurgeJob, startDraftPurgeJob } from './draft-purge-job';
export { Document } from './entities/document';
export { documentHandlers, documentPolicies } from './handlers';
export { PdfCheckPool } from './pdf-checks';
export { DocumentType } from './rules/document-type';
export type { S3StorageConfig } from './settings';
export { documentStorageFor } from './storage/configured-storage';
export type { DocumentStorage } from './storage/document-storage';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** Where document bytes live (disk or S3). */
    storage: DocumentStorage;
    /** The worker threads that judge uploaded PDFs off the event loop. */
    pdfChecks: PdfCheckPool;
  }
}
