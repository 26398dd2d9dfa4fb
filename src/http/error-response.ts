import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';
import { apiErrorBody, authErrorBody, uploadErrorBody } from './envelope';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/** Translates anything thrown below the HTTP layer into one of the contract's error shapes. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
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
