import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logging/logger';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

/** Gives each request an id (the caller's X-Request-Id when it is sane) and logs one line when it ends. */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.header('x-request-id');
    req.id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    // A child logger per request is not free (pino copies its bindings); build it on first use.
    let log: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: true,
      get: () => (log ??= logger.child({ reqId: req.id })),
    });
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (!logger.isLevelEnabled('info')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.log.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          operationId: res.locals.operationId,
        },
        'request',
      );
    });
    next();
  };
}
