import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Context, type Document, type Options } from 'openapi-backend';
import { CompiledRouter } from './compiled-router';
import type { ContractRequest, OperationId } from './contract';

/**
 * openapi-backend validates with Ajv's draft-07 class and checks the document with a 3.0-only
 * validator that rejects valid 3.1 (and then silently registers no route). We validate with
 * Ajv2020 + ajv-formats instead and let `redocly lint` be the definition check.
 */
class OpenApi31Backend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }

  /** The same routing with its per-document work done once (see CompiledRouter). */
  override async init(): Promise<this> {
    await super.init();
    this.router = new CompiledRouter({
      definition: this.definition,
      apiRoot: this.apiRoot,
      ignoreTrailingSlashes: this.ignoreTrailingSlashes,
    });
    this.validator.router = this.router;
    return this;
  }
}

// OpenAPI's numeric and binary formats are annotations, not constraints.
const ANNOTATION_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

/** Ajv as the contract reads schemas: JSON Schema 2020-12, OpenAPI's formats, unknown keywords (x-*) ignored. */
export function contractAjv(options: Options['ajvOpts'] = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...options, strict: false, allErrors: true });
  addFormats(ajv);
  for (const format of ANNOTATION_FORMATS) ajv.addFormat(format, true);
  return ajv;
}

export function createOpenApiBackend(definition: Document, options: Partial<Options> = {}): OpenAPIBackend {
  return new OpenApi31Backend({
    definition,
    apiRoot: '/',
    strict: true,
    // Validators compile on an operation's first request instead of at start: compiling them all
    // was 1.8 s of every start (and of every operator command that loads the app), most of it for
    // operations a process may never serve. The document is dereferenced synchronously too.
    quick: true,
    validate: true,
    coerceTypes: true,
    ajvOpts: { allErrors: true },
    // verbose: a failed `pattern` carries its schema, whose `x-pattern-message` is the field error a partner reads.
    // validateSchema off: openapi-backend makes a new Ajv for each validator it compiles, and each
    // would compile the JSON Schema meta-schema to check our linted document's schemas again: several
    // times the cost of the validator itself (DocumentedResponses skips it for the same reason).
    customizeAjv: (_original, ajvOpts) => contractAjv({ ...ajvOpts, verbose: true, validateSchema: false }),
    ...options,
  });
}

/**
 * The one place a request is read as its operation's generated types. openapi-backend has routed
 * it to operation `Id` and validated body, path and query against that operation's schemas
 * (coercing query and path values) before any handler runs, which TypeScript cannot see.
 */
export function contractRequest<Id extends OperationId>(c: Context): ContractRequest<Id> {
  const request: { requestBody: unknown; params: unknown; query: unknown; headers: unknown } = c.request;
  // Sound by the validation above; Context's fields are loosely typed (any, string maps).
  return {
    body: request.requestBody,
    params: request.params,
    query: request.query,
    headers: request.headers,
  } as ContractRequest<Id>;
}
