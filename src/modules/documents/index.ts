import type { DocumentStorage } from './storage/document-storage';
import type { PdfCheckPool } from './pdf-checks';
export * from './documents';
export * from './draft-purge-job';
export * from './entities/document';
export * from './handlers';
export { PdfCheckPool, PDF_CHECK_BUDGET, type PdfCheckBudget } from './pdf-checks';
export type { PdfVerdict } from './rules/pdf-active-content';
export * from './rules/document-type';
export type { DocumentSettings, DocumentStorageConfig, S3StorageConfig } from './settings';
export * from './storage/configured-storage';
export * from './storage/document-storage';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** Where document bytes live (disk or S3). */
    storage: DocumentStorage;
    /** The worker threads that judge uploaded PDFs off the event loop. */
    pdfChecks: PdfCheckPool;
  }
}
