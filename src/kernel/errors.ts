/**
 * The ways a request can be refused, named for what went wrong rather than how HTTP says it.
 * Domain rules, services and the HTTP edge raise these; only `http/error-response` decides the
 * status and which of the contract's three error shapes (SPEC section 7) a kind is answered with.
 */
import type { Schemas } from './http/wire';

export type FieldErrors = Record<string, string>;

/** The stable code a partner branches on (the contract's ErrorCode enum); the message is prose. */
export type ErrorCode = Schemas['ErrorCode'];

export type ErrorKind =
  /** The request breaks a rule of the contract or of the business (with field errors when one field is to blame). */
  | 'invalid'
  /** No usable credential or token. */
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  /** The request clashes with the state of a resource (a used quote, a reused Idempotency-Key). */
  | 'conflict'
  | 'too-large'
  /** POST /documents refuses the upload itself (its own error shape). */
  | 'upload-refused'
  | 'upload-too-large'
  /** A limit on how much or how often; `retryAfterSeconds` says when it frees. */
  | 'too-many'
  | 'not-implemented';

export interface ErrorDetails {
  fieldErrors?: FieldErrors;
  retryAfterSeconds?: number;
  /** For `method-not-allowed`: the methods the path has. */
  allowedMethods?: string[];
  /** The cause's own code; without one the kind's general code is answered (http/error-response). */
  code?: ErrorCode;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get fieldErrors(): FieldErrors | undefined {
    return this.details.fieldErrors;
  }

  /** The same refusal, named with the code of its cause: `throw conflict('...').coded('QUOTE_ALREADY_USED')`. */
  coded(code: ErrorCode): DomainError {
    return new DomainError(this.kind, this.message, { ...this.details, code });
  }
}

export const invalid = (message: string, fieldErrors?: FieldErrors) =>
  new DomainError('invalid', message, { fieldErrors });
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message: string) => new DomainError('not-found', message);
export const conflict = (message: string, fieldErrors?: FieldErrors) =>
  new DomainError('conflict', message, { fieldErrors });
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new DomainError('too-many', message, { retryAfterSeconds });

/** Rejects with a field error on one field, the common case of a business-rule failure. */
export const invalidField = (field: string, message: string, summary = 'Validation failed') =>
  invalid(summary, { [field]: message });

/** A failure POST /documents detects in the upload itself; `tooLarge` when the file is over the limit. */
export const uploadRefused = (message: string, tooLarge = false) =>
  new DomainError(tooLarge ? 'upload-too-large' : 'upload-refused', message);

/**
 * A call to an outside provider (a payment gateway) that did not give a usable answer: TIMEOUT (no answer within
 * PAYMENT_PROVIDER_TIMEOUT_MS), UNREACHABLE (connection refused, DNS, reset) or BAD_ANSWER (an
 * error status or a body we cannot read), NOT_CONFIGURED (no provider serves the gateway),
 * UNDECIDED (it took the call and has not decided yet: a sandbox refund waiting for its helper).
 * Partners see 502 for BAD_ANSWER and 503 for the others.
 */
export class ProviderUnavailableError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: 'TIMEOUT' | 'UNREACHABLE' | 'BAD_ANSWER' | 'NOT_CONFIGURED' | 'UNDECIDED',
    readonly detail: string,
    /** The call failed before anything that changes state at the provider was sent (a lookup before a refund). */
    readonly nothingSent = false,
  ) {
    super(`${provider} ${kind.toLowerCase().replace('_', ' ')}: ${detail}`);
    this.name = 'ProviderUnavailableError';
  }
}
