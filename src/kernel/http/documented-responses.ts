import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { Document } from 'openapi-backend';
import { isRecord } from '../narrow';
import { contractAjv } from './openapi';

const DOCUMENT_ID = 'openapi.json';

/** What the contract says an operation answers with one status, found under the key that matched it. */
export interface DocumentedResponse {
  /** The status key that matched: the status itself, its class (`4XX`) or `default`. */
  key: string;
  /** Its media types, empty when it documents no body. */
  mediaTypes: string[];
  /** Null when the body is not checked: no JSON schema, and not a 204 without content. */
  validate: ValidateFunction | null;
}

/**
 * The answers the document promises, checked by one Ajv that holds the whole document and reaches
 * schemas by JSON pointer: a component is compiled once for every operation that names it.
 * (openapi-backend compiles every status of an operation from its own dereferenced copy.)
 */
export class DocumentedResponses {
  private readonly ajv: Ajv2020;
  private readonly operations = new Map<string, { pointer: string; responses: Record<string, unknown> }>();
  private readonly found = new Map<string, DocumentedResponse | undefined>();

  constructor(private readonly document: Document) {
    this.ajv = contractAjv({ validateSchema: false });
    this.ajv.addSchema(document, DOCUMENT_ID);
    for (const [pathName, item] of Object.entries(document.paths ?? {})) {
      if (!isRecord(item)) continue;
      for (const [method, operation] of Object.entries(item)) {
        if (!isRecord(operation) || typeof operation.operationId !== 'string') continue;
        const responses = isRecord(operation.responses) ? operation.responses : {};
        this.operations.set(operation.operationId, {
          pointer: `/paths/${pointerToken(pathName)}/${method}/responses`,
          responses,
        });
      }
    }
  }

  hasOperation(operationId: string): boolean {
    return this.operations.has(operationId);
  }

  /** The documented answer for `status` (exact, then its class, then `default`), or undefined when the contract has none. */
  for(operationId: string, status: number): DocumentedResponse | undefined {
    const cacheKey = `${operationId} ${status}`;
    if (!this.found.has(cacheKey)) this.found.set(cacheKey, this.lookUp(operationId, status));
    return this.found.get(cacheKey);
  }

  /** The violations of `body` against the answer documented for `status`; empty when it holds. */
  violations(operationId: string, status: number, body: unknown): ErrorObject[] | string[] {
    const documented = this.for(operationId, status);
    if (!documented) return [`status ${status} is not documented`];
    if (!documented.validate || documented.validate(body)) return [];
    return documented.validate.errors ?? [];
  }

  private lookUp(operationId: string, status: number): DocumentedResponse | undefined {
    const operation = this.operations.get(operationId);
    if (!operation) return undefined;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find(
      (candidate) => candidate in operation.responses,
    );
    if (key === undefined) return undefined;
    let pointer = `${operation.pointer}/${key}`;
    let response = operation.responses[key];
    while (isRecord(response) && typeof response.$ref === 'string' && response.$ref.startsWith('#/')) {
      pointer = response.$ref.slice(1);
      response = this.at(pointer);
    }
    if (!isRecord(response)) return undefined;
    const content = isRecord(response.content) ? response.content : undefined;
    const json = content?.['application/json'];
    let validate: ValidateFunction | null = null;
    if (isRecord(json) && json.schema !== undefined)
      validate = this.schemaAt(`${pointer}/content/application~1json/schema`);
    // As openapi-backend does: a 204 without content must have no body.
    else if (!content && key === '204') validate = this.ajv.compile({ type: 'null' });
    return { key, mediaTypes: Object.keys(content ?? {}), validate };
  }

  /** A schema of the document by JSON pointer (`/components/schemas/Order`), compiled once. */
  schemaAt(pointer: string): ValidateFunction {
    const validate = this.ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
    if (!validate) throw new Error(`The document has no schema at ${pointer}`);
    return validate;
  }

  private at(pointer: string): unknown {
    return pointer
      .split('/')
      .slice(1)
      .reduce<unknown>(
        (at, token) => (isRecord(at) ? at[token.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined),
        this.document,
      );
  }
}

export const pointerToken = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
