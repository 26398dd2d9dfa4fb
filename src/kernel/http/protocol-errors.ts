import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { apiErrorBody } from './envelope';
import type { ErrorCode } from '../errors';

/** What Node's HTTP layer refuses, by error code; anything else it refuses is a malformed request. */
const PROTOCOL_ERRORS: Record<string, { status: number; message: string; code: ErrorCode }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers or URL are too large', code: 'HEADERS_TOO_LARGE' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time', code: 'REQUEST_TIMEOUT' },
};

/**
 * How long a refused connection keeps reading (and dropping) what the client still sends. Closing
 * with unread bytes makes the kernel send a reset, which can reach the client before it has read
 * the answer: it would see a dropped connection instead of the 431 (the lingering close of RFC 9112
 * section 9.6).
 */
const LINGER_MS = 2000;

/** The response Node attaches to a socket while express answers a request on it (not in @types/node). */
type ServerSocket = Socket & { _httpMessage?: { headersSent: boolean } | null };

/**
 * Requests Node's HTTP layer refuses before express sees them or finishes reading them (headers
 * or URL over the size limit: 431; headers or body not received within headersTimeout or
 * requestTimeout: 408; a malformed request line or header: 400). Node's default answer has no
 * body; this one answers in shape 2 like every other 4xx, then closes the connection, which the
 * parser cannot reuse anyway, once the client has had time to read the answer.
 */
export function answerProtocolErrorsInShape(server: Server): void {
  const answered = new WeakSet<Socket>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: ServerSocket) => {
    // The rest of an over-long request fails the parser again: it is dropped, the answer stands.
    if (answered.has(socket)) return;
    // An answer already on its way must not be corrupted by a second one.
    if (!socket.writable || error.code === 'ECONNRESET' || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message, code } = PROTOCOL_ERRORS[error.code ?? ''] ?? {
      status: 400,
      message: 'Malformed HTTP request',
      code: 'MALFORMED_REQUEST' as const,
    };
    const body = JSON.stringify(apiErrorBody(status, message, code, ''));
    answered.add(socket);
    socket.on('data', () => undefined);
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
