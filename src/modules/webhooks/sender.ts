import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './rules/endpoint-address';

export interface SendResult {
  /** Absent when no answer came (refused address, connection error, timeout). */
  status?: number;
  latencyMs: number;
  error?: string;
  /** The endpoint's address was refused (SSRF rule), so no request was made. */
  refused?: boolean;
}

export class RefusedAddressError extends Error {
  constructor(readonly address: string) {
    super(`endpoint resolves to a non-public address (${address})`);
  }
}

/**
 * The DNS lookup every delivery connects through. Outside sandbox each resolved address must be
 * public; the check runs on the very addresses the socket connects to, so a name that resolves to
 * a public address at registration and to 127.0.0.1 now (DNS rebinding) is still refused.
 */
function guardedLookup(allowLocal: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const bad = allowLocal ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
      if (bad) return callback(new RefusedAddressError(bad.address), '', 4);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      // dns.lookup answers an error, not an empty list, for a name without addresses.
      if (first === undefined) return callback(new Error(`${hostname} resolved to no address`), '', 4);
      return callback(null, first.address, first.family);
    });
  };
}

export interface WebhookSender {
  post(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): void;
}

/**
 * POSTs deliveries with a hard timeout over keep-alive connections (a partner's endpoint gets
 * many). Redirects are not followed: a 3xx is an answer that is not 2xx, so it is retried.
 */
export function createWebhookSender(options: { timeoutMs: number; allowLocal: boolean }): WebhookSender {
  const lookup = guardedLookup(options.allowLocal);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 50, lookup }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 50, lookup }),
  };
  return {
    post(url, headers, body) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      return new Promise<SendResult>((resolve) => {
        const target = new URL(url);
        const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
        const transport = target.protocol === 'https:' ? https : http;
        const request = transport.request(
          target,
          {
            method: 'POST',
            agent,
            headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'pbs-webhooks/1' },
            signal: AbortSignal.timeout(options.timeoutMs),
          },
          (response) => {
            // Only the status matters; the body is read (and dropped) so the connection can be reused.
            response.resume();
            response.on('end', () => resolve({ status: response.statusCode, latencyMs: elapsed() }));
            response.on('error', (error) => resolve({ status: response.statusCode, latencyMs: elapsed(), error: error.message }));
          },
        );
        request.on('error', (error) => {
          const refused = error instanceof RefusedAddressError;
          const message = error.name === 'AbortError' || error.name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : error.message;
          resolve({ latencyMs: elapsed(), error: message, refused });
        });
        request.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
