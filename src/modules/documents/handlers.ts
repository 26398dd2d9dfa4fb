import type { Document } from './entities/document';
import { successBody } from '../../kernel/http/envelope';
import { receiveDocumentUpload } from './upload-request';
import { countUploadedBytes, UPLOAD_BYTES_COUNTER } from './upload-quota';
import { uploadDraftDocument } from './documents';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { createKeyHeader, replayedHeaders } from '../../kernel/http/idempotent-create';
import type { Schemas } from '../../kernel/http/wire';
import type { OperationPolicies } from '../../kernel/http/operation-policy';

export const documentHandlers = {
  async uploadDocument({ headers }, scope) {
    const principal = callerOf(scope);
    const { storage, pdfChecks, config } = scope.services;
    const quota = { maxDrafts: config.maxDraftsPerCompany, draftTtlHours: config.documentDraftTtlHours };
    const limits = { quota, maxFileBytes: config.maxUploadBytes };
    const { document, replayed } = await uploadDraftDocument(
      scope.em,
      { storage, pdfChecks },
      principal,
      limits,
      (sink) => receiveDocumentUpload(scope.req, sink, limits.maxFileBytes),
      createKeyHeader(headers),
    );
    await countUploadedBytes(scope, Number(document.fileSize));
    return {
      status: 201,
      ...replayedHeaders(replayed),
      body: successBody(documentWire(document), 'Document uploaded'),
    };
  },
} satisfies TagHandlers;

export function documentWire(document: Document): Schemas['Document'] {
  return {
    documentId: document.id,
    documentType: document.documentType,
    fileName: document.fileName,
    fileSize: Number(document.fileSize),
    contentType: document.contentType,
    uploadedAt: document.uploadedAt.toISOString(),
    status: document.traveller ? 'ATTACHED' : 'DRAFT',
  };
}

/**
 * Uploads are counted per company, and an upload is refused before any byte is stored once the
 * company's byte quota is spent (the bytes themselves are counted once stored: countUploadedBytes).
 */
export const documentPolicies = {
  uploadDocument: {
    rateLimits: [
      { counter: 'upload', limit: (limits) => limits.uploadPerCompany },
      { counter: UPLOAD_BYTES_COUNTER, limit: (limits) => limits.uploadBytesPerCompany, cost: 0 },
    ],
  },
} satisfies OperationPolicies;
