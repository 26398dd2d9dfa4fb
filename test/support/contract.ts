import type { Document } from 'openapi-backend';
import { DocumentedResponses, pointerToken } from '../../src/kernel/http/documented-responses';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';

const document: Document = loadSpecDocument();
let documented: DocumentedResponses | undefined;
const responses = () => (documented ??= new DocumentedResponses(document));

/**
 * Fails unless `body` is what the spec promises for `operationId` answering `status` (that very
 * status, not a class or `default`). Dredd checks only keys; this checks types, formats, enums
 * and required fields.
 */
export async function expectContract(
  operationId: string,
  status: number,
  body: unknown,
  contentType?: string,
): Promise<void> {
  if (!responses().hasOperation(operationId)) throw new Error(`The spec has no operation ${operationId}`);
  const response = responses().for(operationId, status);
  if (response?.key !== String(status)) {
    throw new Error(`The spec does not document status ${status} for ${operationId}; body: ${JSON.stringify(body)}`);
  }
  // A page answered beside JSON for the same status must be one the spec documents there.
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType && mediaType !== 'application/json' && response.mediaTypes.length > 0) {
    if (!response.mediaTypes.includes(mediaType))
      throw new Error(`The spec does not document ${mediaType} for ${operationId} ${status}`);
    if (typeof body !== 'string') throw new Error(`${operationId} ${status} ${mediaType} body is not text`);
    return;
  }
  const errors = responses().violations(operationId, status, body);
  if (errors.length > 0) {
    throw new Error(
      `${operationId} ${status} body violates the spec: ${JSON.stringify(errors, null, 2)}\nbody: ${JSON.stringify(body, null, 2)}`,
    );
  }
}

/** For responses that belong to no operation (unknown paths): check against a named component schema. */
export function expectSchema(schemaName: string, body: unknown): void {
  const validate = responses().schemaAt(`/components/schemas/${pointerToken(schemaName)}`);
  if (!validate(body))
    throw new Error(
      `body violates ${schemaName}: ${JSON.stringify(validate.errors, null, 2)}\nbody: ${JSON.stringify(body)}`,
    );
}
