import type { NextFunction, Request, Response } from 'express';
import { invalid } from '../errors';

/**
 * Paths no route can take, refused before any route sees them: the API, the docs, the sandbox
 * checkout pages and paths that match nothing alike. Express decodes path segments for its
 * routes and throws a URIError (a 500) on invalid percent-encoding; a decoded NUL reaches
 * PostgreSQL, which cannot hold it in text ("invalid message format", another 500).
 */
export function rejectUnreadablePaths() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(req.path);
    } catch {
      next(invalid('Request path is not valid percent-encoded UTF-8').coded('MALFORMED_REQUEST'));
      return;
    }
    if (decoded.includes('\u0000')) next(invalid('Request path must not contain the NUL character'));
    else next();
  };
}
