import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import express, { type Express } from 'express';

/**
 * How a simulated provider behaves right now: `up`; `slow` (accepts the connection and never
 * answers, like an overloaded provider); `down` (drops every connection); `error` (HTTP 500 with
 * an HTML page, like a provider behind a failing proxy). Only its API is affected: hosted pages
 * keep working, so a test can switch the API off and on around a customer's visit.
 */
export type ProviderHealth = 'up' | 'slow' | 'down' | 'error';

export interface SimulatorServer {
  url: string;
  health: ProviderHealth;
  /** API calls received (all of them, whatever the health). */
  apiCalls: number;
  /** API calls taken while `slow` and never answered: whoever called gave up on its own. */
  unanswered: number;
  stop(): Promise<void>;
}

/** A loopback HTTP server for a simulated provider: `build` adds its routes; `apiPrefix` marks its API (one path or several). */
export async function startSimulatorServer(
  apiPrefix: string | string[],
  build: (app: Express) => void,
): Promise<SimulatorServer & { app: Express }> {
  const app = express();
  const sockets = new Set<Socket>();
  const state: SimulatorServer & { app: Express } = {
    url: '',
    health: 'up',
    apiCalls: 0,
    unanswered: 0,
    app,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  app.use(apiPrefix, (req, res, next) => {
    state.apiCalls += 1;
    if (state.health === 'slow') {
      state.unanswered += 1;
      return; // never answered; the caller's timeout ends it
    }
    if (state.health === 'down') {
      req.socket.destroy();
      return;
    }
    if (state.health === 'error') {
      res.status(500).type('html').send('<html><body>502 Bad Gateway</body></html>');
      return;
    }
    next();
  });
  build(app);
  const server = http.createServer(app);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

export const randomId = (length: number): string => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let id = '';
  for (let i = 0; i < length; i++) id += alphabet[Math.floor(Math.random() * alphabet.length)];
  return id;
};

export const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/** The server settings that put card_gateway on a Khalti simulator and wallet_gateway on an eSewa one. */
export function simulatedProvidersEnv(
  khalti: { secretKey: string; apiBase: string },
  esewa: { productCode: string; secretKey: string; formUrl: string; statusUrl: string },
): Record<string, string> {
  return {
    CARD_GATEWAY_PROVIDER: 'khalti',
    WALLET_GATEWAY_PROVIDER: 'esewa',
    KHALTI_SECRET_KEY: khalti.secretKey,
    KHALTI_BASE_URL: khalti.apiBase,
    ESEWA_PRODUCT_CODE: esewa.productCode,
    ESEWA_SECRET_KEY: esewa.secretKey,
    ESEWA_FORM_URL: esewa.formUrl,
    ESEWA_STATUS_URL: esewa.statusUrl,
  };
}
