import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Document } from 'openapi-backend';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import { createOpenApiBackend } from '../../src/kernel/http/openapi';

let backend: ReturnType<typeof createOpenApiBackend> | undefined;
let schemaAjv: Ajv2020 | undefined;
const document: Document = loadSpecDocument();

async function contractBackend() {
  if (!backend) {
    backend = createOpenApiBackend(document);
    await backend.init();
  }
  return backend;
}

/**
 * Fails unless `body` is what the spec promises for `operationId` answering `status`.
 * Dredd checks only keys; this checks types, formats, enums and required fields.
 */
export async function expectContract(operationId: string, status: number, body: unknown, contentType?: string): Promise<void> {
  const api = await contractBackend();
  const operation = api.getOperation(operationId);
  if (!operation) throw new Error(`The spec has no operation ${operationId}`);
  const response = operation.responses?.[String(status)];
  if (!response) {
    throw new Error(`The spec does not document status ${status} for ${operationId}; body: ${JSON.stringify(body)}`);
  }
  // openapi-backend checks JSON bodies only, and always against the status's application/json
  // schema: a page answered beside JSON for the same status must be one the spec documents there.
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType && mediaType !== 'application/json' && 'content' in response && response.content) {
    if (!(mediaType in response.content)) throw new Error(`The spec does not document ${mediaType} for ${operationId} ${status}`);
    if (typeof body !== 'string') throw new Error(`${operationId} ${status} ${mediaType} body is not text`);
    return;
  }
  const result = api.validateResponse(body, operationId, status);
  if (result.errors && result.errors.length > 0) {
    throw new Error(`${operationId} ${status} body violates the spec: ${JSON.stringify(result.errors, null, 2)}\nbody: ${JSON.stringify(body, null, 2)}`);
  }
}

/** For responses that belong to no operation (unknown paths): check against a named component schema. */
export function expectSchema(schemaName: string, body: unknown): void {
  if (!schemaAjv) {
    schemaAjv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(schemaAjv);
    schemaAjv.addSchema(document, 'openapi.json');
  }
  const validate = schemaAjv.getSchema(`openapi.json#/components/schemas/${schemaName}`) as ValidateFunction | undefined;
  if (!validate) throw new Error(`The spec has no schema ${schemaName}`);
  if (!validate(body)) throw new Error(`body violates ${schemaName}: ${JSON.stringify(validate.errors, null, 2)}\nbody: ${JSON.stringify(body)}`);
}
