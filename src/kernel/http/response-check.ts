import type { Readable } from 'node:stream';
import type { Document } from 'openapi-backend';
import { DocumentedResponses } from './documented-responses';

type Headers = Readonly<Record<string, string>>;

/** A handler's answer as the HTTP layer writes it: JSON (or nothing), another media type's text, or a stream. */
export type Answer =
  | { status: number; headers?: Headers; body?: unknown }
  | { status: number; headers?: Headers; contentType: string; body: string }
  | { status: number; headers?: Headers; contentType: string; stream: Readable };

/** `off` in production; elsewhere `log` a violation at error level, or (the tests) also answer `fail`'s 500. */
export type ResponseValidation = 'off' | 'log' | 'fail';

/** Where a violation is reported: the request's logger. */
export interface ViolationLog {
  error(details: object, message: string): void;
}

export interface ResponseCheckConfig {
  responseValidation: ResponseValidation;
}

/**
 * Checks each answer against its operation's documented statuses and JSON schema before it is
 * written, so that drift between the code and the spec is loud where it is cheap to fix. Under
 * `fail` the partner-facing answer becomes a 500: a test asserting the status or the body fails.
 */
export function responseCheck(document: Document, config: ResponseCheckConfig | undefined) {
  const mode = config?.responseValidation ?? 'off';
  const documented = mode === 'off' ? undefined : new DocumentedResponses(document);
  // `logger` is called on a violation only: a request's child logger is built on first use, and that has a cost.
  return (operationId: string, answer: Answer, logger: () => ViolationLog): Answer => {
    if (!documented) return answer;
    const errors = violations(documented, operationId, answer);
    if (errors.length === 0) return answer;
    logger().error({ operationId, status: answer.status, errors }, 'response violates the contract');
    // Thrown, it is answered like any unexpected failure: a 500 in shape 2.
    if (mode === 'fail') throw new Error(`${operationId} answered ${answer.status} outside its contract`);
    return answer;
  };
}

function violations(documented: DocumentedResponses, operationId: string, answer: Answer): unknown[] {
  // Other media types (HTML pages, PDF streams, metrics text) have no JSON schema to hold them to.
  if ('contentType' in answer)
    return documented.for(operationId, answer.status) ? [] : [`status ${answer.status} is not documented`];
  return documented.violations(operationId, answer.status, answer.body ?? null);
}
