import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * compression, for the clients that sent Accept-Encoding. Without it compression can only answer
 * in identity, yet it still wraps every write and header of the response to find that out (about
 * 3% of a quote's CPU, BENCHMARKS.md). Those answers lose only `Vary: Accept-Encoding`, which
 * matters to caches, and every API answer is `no-store`.
 */
export function compressionForAcceptingClients(): RequestHandler {
  const compress = compression();
  return (req, res, next) => {
    if (req.headers['accept-encoding']) compress(req, res, next);
    else next();
  };
}
