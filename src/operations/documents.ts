import type { Document } from '../entities/document';
import { successBody } from '../http/envelope';
import { receiveDocumentUpload } from '../http/multipart-upload';
import { createDraftDocument } from '../services/documents';
import { callerOf, type OperationHandlers } from './operation';
import type { Schemas } from './wire';

export const documentHandlers: OperationHandlers = {
  async uploadDocument(_c, scope) {
    const principal = callerOf(scope);
    const { storage, config } = scope.services;
    const upload = await receiveDocumentUpload(scope.req, storage, config.maxUploadBytes);
    const document = await createDraftDocument(scope.em, storage, principal, upload);
    return { status: 201, body: successBody(documentWire(document), 'Document uploaded') };
  },
};

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
