import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './rules/endpoint-address';
import { connectionFailureCategory } from './rules/connection-failure';

export interface SendResult {
  /** Absent when no answer came (refused address, connection error, timeout). */
  status?: number;
  latencyMs: number;
  error?: string;
  /** The endpoint's address was refused (SSRF rule), so no request was made. */
  refused?: boolean;
}

/** Which address it was stays here, for the operator's log: the partner's delivery log gets only this sentence. */
export class RefusedAddressError extends Error {
  constructor(readonly address: string) {
    super('endpoint resolves to a loopback, private or link-local address');
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

/** A failed request in words a partner may read: never an address. */
function failureText(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error instanceof RefusedAddressError) return error.message;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return connectionFailureCategory(error.code);
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
            headers: {
              ...headers,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'user-agent': 'pbs-webhooks/1',
            },
            signal: AbortSignal.timeout(options.timeoutMs),
          },
          (response) => {
            // Only the status matters; the body is read (and dropped) so the connection can be reused.
            response.resume();
            response.on('end', () => resolve({ status: response.statusCode, latencyMs: elapsed() }));
            response.on('error', (error) =>
              resolve({ status: response.statusCode, latencyMs: elapsed(), error: error.message }),
            );
          },
        );
        request.on('error', (error: NodeJS.ErrnoException) => {
          const refused = error instanceof RefusedAddressError;
          resolve({ latencyMs: elapsed(), error: failureText(error, options.timeoutMs), refused });
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
