import type { Document } from './entities/document';
import { successBody } from '../../kernel/http/envelope';
import { receiveDocumentUpload } from '../../kernel/http/multipart-upload';
import { countUploadedBytes } from '../../kernel/rate-limits/operation-limits';
import { uploadDraftDocument } from './documents';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';

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
