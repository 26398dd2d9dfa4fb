import net from 'node:net';
import type { RunningServer } from '../../src/server';
import { expectSchema } from '../support/contract';
import { startTestServer } from '../support/test-server';

interface RawExchange {
  answer: string;
  reset: boolean;
}

/** Writes `request` in one go on a socket of its own and keeps what comes back until it closes. */
function sendRaw(port: number, request: string): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let reset = false;
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => (reset = error.code === 'ECONNRESET'));
    socket.on('close', () => resolve({ answer, reset }));
    socket.write(request);
  });
}

describe('requests over the size limit of the request line and headers', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('answers an over-long URL 431 in shape 2 and lets the client read it before closing, however much more it sent', async () => {
    // 50 to 300 KB: the server refuses after its first 16 KiB and must not reset on the rest.
    for (let size = 50_000; size <= 300_000; size += 25_000) {
      const exchange = await sendRaw(
        server.port,
        `DELETE /api/external/v1/orders/groups/GRP-2026-000001/promo?code=${'A'.repeat(size)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      );
      expect({ size, reset: exchange.reset, statusLine: exchange.answer.split('\r\n')[0] }).toEqual({
        size,
        reset: false,
        statusLine: 'HTTP/1.1 431 Request Header Fields Too Large',
      });
      const body: unknown = JSON.parse(exchange.answer.slice(exchange.answer.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({ status: 431, message: 'Request headers or URL are too large' });
      expectSchema('ApiError', body);
    }
  });
});
