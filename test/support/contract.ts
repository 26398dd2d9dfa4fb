import type Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv/dist/2020';
import type { Document } from 'openapi-backend';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import { contractAjv } from '../../src/kernel/http/openapi';
import { isRecord } from '../../src/kernel/narrow';

const document: Document = loadSpecDocument();
const DOCUMENT_ID = 'openapi.json';
let documentAjv: Ajv2020 | undefined;

/**
 * One Ajv holding the whole document, schemas reached by JSON pointer: a component is compiled
 * once for every operation that names it. (openapi-backend's own response check compiled every
 * status of an operation from its dereferenced copy, in every test file: the largest part of
 * a file's start.)
 */
function schemaAt(pointer: string): ValidateFunction {
  if (!documentAjv) {
    documentAjv = contractAjv({ validateSchema: false });
    documentAjv.addSchema(document, DOCUMENT_ID);
  }
  const validate = documentAjv.getSchema(`${DOCUMENT_ID}#${pointer}`);
  if (!validate) throw new Error(`The spec has no schema at ${pointer}`);
  return validate;
}

const pointerToken = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Where an operation's answer for a status is documented: its pointer (past a local $ref) and the object there. */
function documentedResponse(operationId: string, status: number, body: unknown): { pointer: string; response: Record<string, unknown> } {
  for (const [pathName, item] of Object.entries(document.paths ?? {})) {
    if (!isRecord(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isRecord(operation) || operation.operationId !== operationId) continue;
      const responses = isRecord(operation.responses) ? operation.responses : {};
      let response: unknown = responses[String(status)];
      let pointer = `/paths/${pointerToken(pathName)}/${method}/responses/${status}`;
      while (isRecord(response) && typeof response.$ref === 'string' && response.$ref.startsWith('#/')) {
        pointer = response.$ref.slice(1);
        response = pointer.split('/').slice(1).reduce<unknown>((at, key) => (isRecord(at) ? at[key.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined), document);
      }
      if (!isRecord(response)) {
        throw new Error(`The spec does not document status ${status} for ${operationId}; body: ${JSON.stringify(body)}`);
      }
      return { pointer, response };
    }
  }
  throw new Error(`The spec has no operation ${operationId}`);
}

/**
 * Fails unless `body` is what the spec promises for `operationId` answering `status`.
 * Dredd checks only keys; this checks types, formats, enums and required fields.
 */
export async function expectContract(operationId: string, status: number, body: unknown, contentType?: string): Promise<void> {
  const { pointer, response } = documentedResponse(operationId, status, body);
  const content = isRecord(response.content) ? response.content : undefined;
  // A page answered beside JSON for the same status must be one the spec documents there.
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType && mediaType !== 'application/json' && content) {
    if (!(mediaType in content)) throw new Error(`The spec does not document ${mediaType} for ${operationId} ${status}`);
    if (typeof body !== 'string') throw new Error(`${operationId} ${status} ${mediaType} body is not text`);
    return;
  }
  const json = content?.['application/json'];
  let validate: ValidateFunction | undefined;
  if (isRecord(json) && json.schema !== undefined) validate = schemaAt(`${pointer}/content/application~1json/schema`);
  // As openapi-backend did: a 204 without content is checked to have no body.
  else if (!content && status === 204) validate = contractAjv().compile({ type: 'null' });
  if (validate && !validate(body)) {
    throw new Error(`${operationId} ${status} body violates the spec: ${JSON.stringify(validate.errors, null, 2)}\nbody: ${JSON.stringify(body, null, 2)}`);
  }
}

/** For responses that belong to no operation (unknown paths): check against a named component schema. */
export function expectSchema(schemaName: string, body: unknown): void {
  const validate = schemaAt(`/components/schemas/${pointerToken(schemaName)}`);
  if (!validate(body)) throw new Error(`body violates ${schemaName}: ${JSON.stringify(validate.errors, null, 2)}\nbody: ${JSON.stringify(body)}`);
}
