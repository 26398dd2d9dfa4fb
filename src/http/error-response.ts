import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';
import { apiErrorBody, authErrorBody, uploadErrorBody } from './envelope';
import { ProviderUnavailableError } from '../gateways/gateway';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/** Translates anything thrown below the HTTP layer into one of the contract's error shapes. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ProviderUnavailableError) return providerError(error);
  const http = error as HttpLikeError;
  // body-parser's own errors: malformed JSON, too large, wrong charset
  if (http && http.type === 'entity.too.large') return new AppError(413, 'Request body is too large');
  if (http && http.type === 'entity.parse.failed') return new AppError(400, 'Request body is not valid JSON', { body: 'must be valid JSON' });
  if (http && http.expose && typeof (http.status ?? http.statusCode) === 'number') {
    const status = (http.status ?? http.statusCode) as number;
    if (status >= 400 && status < 500) return new AppError(status, (error as Error).message);
  }
  return new AppError(500, 'Internal server error');
}

/**
 * A payment provider that did not answer usably: 503 when it did not answer (or none is
 * configured), 502 when it answered with an error; shape 2, with the reason in the log only.
 */
function providerError(error: ProviderUnavailableError): AppError {
  if (error.kind === 'BAD_ANSWER') return new AppError(502, 'The payment provider gave an answer we could not use; nothing was charged. Retry with the same Idempotency-Key');
  return new AppError(503, 'The payment provider is not available at the moment; nothing was charged. Retry with the same Idempotency-Key', undefined, 'api', { 'Retry-After': '5' });
}

export function sendError(req: Request, res: Response, error: AppError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  // RFC 6750 section 3: a 401 names the scheme; with a token that was refused, also why.
  if (error.status === 401) {
    res.setHeader('WWW-Authenticate', /^Bearer\s/i.test(req.headers.authorization ?? '') ? 'Bearer realm="partner-api", error="invalid_token"' : 'Bearer realm="partner-api"');
  }
  const body =
    error.shape === 'auth'
      ? authErrorBody(error.message)
      : error.shape === 'upload'
        ? uploadErrorBody(error.message)
        : apiErrorBody(error.status, error.message, req.originalUrl.split('?')[0], error.fieldErrors);
  res.status(error.status).json(body);
}

export function errorMiddleware() {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const appError = toAppError(error);
    // A 500's cause goes to the log only; the partner sees a generic message.
    if (appError.status >= 500) req.log?.error({ err: error }, 'unhandled error');
    sendError(req, res, appError);
  };
}

export function unknownPathMiddleware() {
  return (req: Request, res: Response): void => {
    sendError(req, res, new AppError(404, `No endpoint ${req.method} ${req.path}`));
  };
}
