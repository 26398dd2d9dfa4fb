import type { Document } from '../entities/document';
import { successBody } from '../http/envelope';
import { receiveDocumentUpload } from '../http/multipart-upload';
import { countUploadedBytes } from '../http/rate-limits';
import { uploadDraftDocument } from '../services/documents';
import { callerOf, type TagHandlers } from './operation';
import type { Schemas } from '../domain/wire';

export const documentHandlers = {
  async uploadDocument(_c, scope) {
    const principal = callerOf(scope);
    const { storage, config } = scope.services;
    const quota = { maxDrafts: config.maxDraftsPerCompany, draftTtlHours: config.documentDraftTtlHours };
    const limits = { quota, maxFileBytes: config.maxUploadBytes };
    const document = await uploadDraftDocument(scope.em, storage, principal, limits, (sink) => receiveDocumentUpload(scope.req, sink, limits.maxFileBytes));
    await countUploadedBytes(scope, Number(document.fileSize));
    return { status: 201, body: successBody(documentWire(document), 'Document uploaded') };
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
