import type { NextFunction, Request, Response } from 'express';
import {
  DomainError,
  notFound,
  ProviderUnavailableError,
  type ErrorCode,
  type ErrorKind,
  type FieldErrors,
} from '../errors';
import { isDatabaseUnavailable } from '../db/database-unavailable';
import { apiErrorBody, authErrorBody, uploadErrorBody } from './envelope';

/** Which of the contract's error shapes (SPEC section 7) an answer takes: 1 for every 401, 3 for POST /documents' own refusals, 2 for the rest. */
type ErrorShape = 'api' | 'auth' | 'upload';

/** An error as it goes on the wire: the one place statuses are chosen. */
export interface HttpError {
  status: number;
  message: string;
  code: ErrorCode;
  shape: ErrorShape;
  fieldErrors?: FieldErrors;
  headers: Record<string, string>;
}

/** Each kind's status, shape, and the code answered when the error names no cause of its own. */
const KINDS: Record<ErrorKind, { status: number; shape: ErrorShape; code: ErrorCode }> = {
  invalid: { status: 400, shape: 'api', code: 'INVALID_REQUEST' },
  unauthenticated: { status: 401, shape: 'auth', code: 'TOKEN_INVALID' },
  forbidden: { status: 403, shape: 'api', code: 'FORBIDDEN' },
  'not-found': { status: 404, shape: 'api', code: 'NOT_FOUND' },
  'method-not-allowed': { status: 405, shape: 'api', code: 'METHOD_NOT_ALLOWED' },
  conflict: { status: 409, shape: 'api', code: 'CONFLICT' },
  'too-large': { status: 413, shape: 'api', code: 'PAYLOAD_TOO_LARGE' },
  'upload-refused': { status: 400, shape: 'upload', code: 'UPLOAD_REFUSED' },
  'upload-too-large': { status: 413, shape: 'upload', code: 'FILE_TOO_LARGE' },
  'too-many': { status: 429, shape: 'api', code: 'RATE_LIMITED' },
  'not-implemented': { status: 501, shape: 'api', code: 'NOT_IMPLEMENTED' },
};

const httpError = (
  status: number,
  message: string,
  code: ErrorCode,
  fieldErrors?: FieldErrors,
  headers: Record<string, string> = {},
): HttpError => ({
  status,
  message,
  code,
  shape: 'api',
  fieldErrors,
  headers,
});

/** body-parser's errors carry `type`, `status` and `expose` (http-errors); nothing else here is trusted. */
interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  expose?: unknown;
  message?: unknown;
}

/** How long a partner is asked to wait while the database is unreachable: about a PostgreSQL restart. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Translates anything thrown below the HTTP layer into one of the contract's error shapes. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof DomainError) return fromKind(error);
  if (error instanceof ProviderUnavailableError) return providerError(error);
  // An outage, not a defect: partners' clients retry knowingly, operators' alerts tell the two apart.
  if (isDatabaseUnavailable(error)) {
    return httpError(
      503,
      'The service is briefly unavailable; retry after the Retry-After seconds',
      'SERVICE_UNAVAILABLE',
      undefined,
      { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    );
  }
  if (typeof error === 'object' && error !== null) return fromHttpLike(error);
  return httpError(500, 'Internal server error', 'INTERNAL_ERROR');
}

function fromKind(error: DomainError): HttpError {
  const { status, shape, code } = KINDS[error.kind];
  const { retryAfterSeconds, allowedMethods } = error.details;
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
  // RFC 9110 section 15.5.6: a 405 lists the methods the path has.
  if (allowedMethods) headers.Allow = allowedMethods.join(', ');
  return {
    status,
    message: error.message,
    code: error.details.code ?? (error.kind === 'invalid' && error.fieldErrors ? 'VALIDATION_FAILED' : code),
    shape,
    fieldErrors: error.fieldErrors,
    headers,
  };
}

// body-parser's own errors: malformed JSON, too large, wrong charset
function fromHttpLike(http: HttpLikeError): HttpError {
  if (http.type === 'entity.too.large') return httpError(413, 'Request body is too large', 'PAYLOAD_TOO_LARGE');
  // No `details`: the contract gives field errors to validation failures only, and the code says it all.
  if (http.type === 'entity.parse.failed') return httpError(400, 'Request body is not valid JSON', 'MALFORMED_JSON');
  const status = http.status ?? http.statusCode;
  if (http.expose === true && typeof status === 'number' && status >= 400 && status < 500)
    return httpError(status, String(http.message), 'MALFORMED_REQUEST');
  return httpError(500, 'Internal server error', 'INTERNAL_ERROR');
}

/**
 * A payment provider that did not answer usably: 503 when it did not answer (or none is
 * configured), 502 when it answered with an error; shape 2, with the reason in the log only.
 */
function providerError(error: ProviderUnavailableError): HttpError {
  if (error.kind === 'BAD_ANSWER')
    return httpError(
      502,
      'The payment provider gave an answer we could not use; nothing was charged. Retry with the same Idempotency-Key',
      'PAYMENT_PROVIDER_ERROR',
    );
  return httpError(
    503,
    'The payment provider is not available at the moment; nothing was charged. Retry with the same Idempotency-Key',
    'PAYMENT_PROVIDER_UNAVAILABLE',
    undefined,
    { 'Retry-After': '5' },
  );
}

/** The body an error is answered with, in its shape. */
export function errorBody(req: Request, error: HttpError) {
  if (error.shape === 'auth') return authErrorBody(error.message, error.code);
  if (error.shape === 'upload') return uploadErrorBody(error.message, error.code);
  return apiErrorBody(
    error.status,
    error.message,
    error.code,
    req.originalUrl.split('?')[0] ?? req.originalUrl,
    error.fieldErrors,
  );
}

export function sendError(req: Request, res: Response, error: HttpError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  // RFC 6750 section 3: a 401 names the scheme; with a token that was refused, also why.
  if (error.status === 401) {
    res.setHeader(
      'WWW-Authenticate',
      /^Bearer\s/i.test(req.headers.authorization ?? '')
        ? 'Bearer realm="partner-api", error="invalid_token"'
        : 'Bearer realm="partner-api"',
    );
  }
  res.status(error.status).json(errorBody(req, error));
}

export function errorMiddleware() {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const httpError = toHttpError(error);
    // A 500's cause goes to the log only; the partner sees a generic message.
    if (httpError.status >= 500) req.log?.error({ err: error }, 'unhandled error');
    sendError(req, res, httpError);
  };
}

export function unknownPathMiddleware() {
  return (req: Request, res: Response): void => {
    sendError(req, res, toHttpError(notFound(`No endpoint ${req.method} ${req.path}`)));
  };
}
