import type { Server } from 'node:http';
import type { RequestHandler } from 'express';
import { sendError } from './error-response';

/** How long a refused connection may still read what the client sends, so it reads the answer before the close (as in protocol-errors). */
const LINGER_MS = 2000;

const hasBody = (headers: Record<string, string | string[] | undefined>) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/**
 * Node's requestTimeout allows a MAX_UPLOAD_BYTES upload at the slowest accepted rate (90 s by
 * default) and holds every route to it. Any body but a multipart upload (JSON, the checkout
 * pages' forms) must arrive within `timeoutMs` of the headers: else the answer is 408 in shape 2
 * and the connection is closed, so a slow sender holds a connection seconds, not minutes.
 */
export function bodyDeadline(timeoutMs: number): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req.headers) || /^multipart\//i.test(req.headers['content-type'] ?? '')) {
      next();
      return;
    }
    const timer = setTimeout(() => {
      if (req.complete || res.headersSent) return;
      res.setHeader('Connection', 'close');
      sendError(req, res, {
        status: 408,
        message: 'The request body was not received in time',
        code: 'REQUEST_TIMEOUT',
        shape: 'api',
        headers: {},
      });
      setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    }, timeoutMs);
    timer.unref();
    const disarm = () => clearTimeout(timer);
    req.once('end', disarm);
    res.once('close', disarm);
    next();
  };
}

/**
 * At most `max` open connections per client address (the socket's peer; behind a proxy, the
 * proxy's, which is why the setting is off there by default). A connection over the cap is closed
 * at once, before a byte is read: answering it would cost the server what the cap saves, and a
 * client within its share never sees it (issue 30: one host held 1,500 slow connections).
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.prependListener('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
