import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { anyText, integer, readEnv, type EnvReading } from '../settings/env-schema';
import { coveredEverything, coveredTooMuch, proxyRanges, tooWideEntries } from './proxy-ranges';

/** false: the socket's peer is the client; a number: that many proxies in front; a list: the proxies' addresses. */
export type TrustProxy = false | number | string[];

/**
 * How long a client may take to send a request. Node's default (300 s for the whole request)
 * lets a slow sender hold a connection and its memory for five minutes.
 */
export interface HttpTimeouts {
  headersTimeoutMs: number;
  /** Headers plus the largest body (a MAX_UPLOAD_BYTES document) at the slowest rate we accept. */
  requestTimeoutMs: number;
  /** The slowest upload accepted, in bytes per second (documented in docs/operations.md). */
  minUploadBytesPerSecond: number;
  /**
   * How long any body but a multipart upload may take to arrive once the headers have: a JSON
   * body (1 MiB at most) needs no upload allowance, and an unauthenticated slow sender held
   * POST /auth/token connections for the whole of it (issue 30).
   */
  jsonBodyTimeoutMs: number;
  /** Open connections one client address may hold; 0: no cap (a proxy in front caps them). */
  maxConnectionsPerAddress: number;
  /** How long a streamed answer (a CSV export, a certificate) may go without the client taking a chunk before it is cut. */
  streamStallMs: number;
  /** How long a streamed answer may take in all, however steadily it is read. */
  streamDeadlineMs: number;
}

/**
 * The request timeouts, given the largest upload (MAX_UPLOAD_BYTES) a request may carry, and the
 * connection cap. Behind a trusted proxy every connection comes from the proxy, so the cap is off
 * unless set: the proxy is where clients are told apart.
 */
export function readHttpTimeouts(reading: EnvReading, maxUploadBytes: number, behindProxy: boolean): HttpTimeouts {
  const env = readEnv(httpEnv(behindProxy), reading);
  return {
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
    requestTimeoutMs:
      (env.HTTP_HEADERS_TIMEOUT_SECONDS + Math.ceil(maxUploadBytes / env.HTTP_MIN_UPLOAD_BYTES_PER_SECOND)) * 1000,
    minUploadBytesPerSecond: env.HTTP_MIN_UPLOAD_BYTES_PER_SECOND,
    jsonBodyTimeoutMs: env.HTTP_JSON_BODY_TIMEOUT_SECONDS * 1000,
    maxConnectionsPerAddress: env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    streamStallMs: env.HTTP_STREAM_STALL_SECONDS * 1000,
    streamDeadlineMs: env.HTTP_STREAM_DEADLINE_SECONDS * 1000,
  };
}

const httpEnv = (behindProxy: boolean) =>
  z.object({
    HTTP_HEADERS_TIMEOUT_SECONDS: integer(1, 300).default(10),
    HTTP_MIN_UPLOAD_BYTES_PER_SECOND: integer(1024, 100 * 1024 * 1024).default(128 * 1024),
    HTTP_JSON_BODY_TIMEOUT_SECONDS: integer(1, 300).default(10),
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: integer(0, 100_000).default(behindProxy ? 0 : 256),
    HTTP_STREAM_STALL_SECONDS: integer(1, 600).default(15),
    HTTP_STREAM_DEADLINE_SECONDS: integer(1, 3600).default(600),
  });

/**
 * TRUST_PROXY, Express's `trust proxy`, restricted to what cannot be spoofed: `true` would believe
 * any X-Forwarded-For a client writes itself and let it pick the address its rate limits count.
 */
export const trustProxySetting = anyText()
  .transform((raw, ctx): TrustProxy => {
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
    const entries = raw.split(',').map((entry) => entry.trim());
    if (!entries.every(isProxyAddress)) {
      ctx.addIssue(
        'must be false, a number of proxies from 1 to 10, or a comma-separated list of proxy addresses ' +
          `(IP, IP/prefix, loopback, linklocal, uniquelocal) (got "${raw}")`,
      );
      return false;
    }
    const wide = wideListProblem(entries);
    if (wide === undefined) return entries;
    ctx.addIssue(wide);
    return false;
  })
  .default(false);

/**
 * `0.0.0.0/1,128.0.0.0/1` is `true` by another name: a range that wide, or a list that covers every
 * address, lets any client write the X-Forwarded-For its rate limits count.
 */
function wideListProblem(entries: readonly string[]): string | undefined {
  const ranges = proxyRanges(entries);
  const wide = tooWideEntries(ranges);
  if (wide.length > 0)
    return `must name proxies, not whole networks: ${wide.join(', ')} ${wide.length === 1 ? 'is' : 'are'} wider than a /8 of IPv4 or a /32 of IPv6 addresses`;
  const everything = coveredEverything(ranges) ?? coveredTooMuch(ranges);
  return everything === undefined
    ? undefined
    : `must name proxies, not everyone: together its entries cover ${everything}`;
}

const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_PRESETS.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))) return false;
  // The prefix is judged here alone: Express refuses /0, which the width rules refuse with a better reason.
  return expressReads(address ?? '');
}

/**
 * Whether Express (its proxy-addr) reads the address: its IP parser, an older ipaddr.js, refuses some
 * forms node's accepts (`::1.2.3.4`, `64:ff9b::1.2.3.4`), and `app.set('trust proxy')` would then
 * stop the start with a TypeError instead of this one line.
 */
function expressReads(address: string): boolean {
  try {
    proxyaddr.compile(address);
    return true;
  } catch {
    return false;
  }
}
