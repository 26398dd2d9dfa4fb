import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { apiErrorBody } from './envelope';

/**
 * Requests Node's HTTP parser refuses before express sees them (headers or URL over the size
 * limit: 431; a malformed request line or header: 400). Node's default answer has no body; this
 * one answers in shape 2 like every other 4xx, then closes the connection, which the parser
 * cannot reuse anyway.
 */
export function answerProtocolErrorsInShape(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET')) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const message = status === 431 ? 'Request headers or URL are too large' : 'Malformed HTTP request';
    const body = JSON.stringify(apiErrorBody(status, message, ''));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
