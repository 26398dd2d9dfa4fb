import { isIP } from 'node:net';
import type { EnvReader } from '../settings/env-reader';
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
export function readHttpTimeouts(read: EnvReader, maxUploadBytes: number, behindProxy: boolean): HttpTimeouts {
  const headersTimeoutSeconds = read.integer('HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1, 300);
  const minUploadBytesPerSecond = read.integer('HTTP_MIN_UPLOAD_BYTES_PER_SECOND', 128 * 1024, 1024, 100 * 1024 * 1024);
  return {
    headersTimeoutMs: headersTimeoutSeconds * 1000,
    requestTimeoutMs: (headersTimeoutSeconds + Math.ceil(maxUploadBytes / minUploadBytesPerSecond)) * 1000,
    minUploadBytesPerSecond,
    jsonBodyTimeoutMs: read.integer('HTTP_JSON_BODY_TIMEOUT_SECONDS', 10, 1, 300) * 1000,
    maxConnectionsPerAddress: read.integer('HTTP_MAX_CONNECTIONS_PER_ADDRESS', behindProxy ? 0 : 256, 0, 100_000),
    streamStallMs: read.integer('HTTP_STREAM_STALL_SECONDS', 15, 1, 600) * 1000,
    streamDeadlineMs: read.integer('HTTP_STREAM_DEADLINE_SECONDS', 600, 1, 3600) * 1000,
  };
}

/**
 * Express's `trust proxy`, restricted to what cannot be spoofed: `true` would believe any
 * X-Forwarded-For a client writes itself and let it pick the address its rate limits count.
 */
export function readTrustProxy(read: EnvReader, name: string): TrustProxy {
  const raw = read.optional(name);
  if (raw === undefined || ['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops <= 10) return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (bad.length === 0) return wideListProblem(entries, name, read) ? false : entries;
  read.problems.push(
    `${name} must be false, a number of proxies from 1 to 10, or a comma-separated list of proxy addresses ` +
      `(IP, IP/prefix, loopback, linklocal, uniquelocal) (got "${raw}")`,
  );
  return false;
}

/**
 * `0.0.0.0/1,128.0.0.0/1` is `true` by another name: a range that wide, or a list that covers every
 * address, lets any client write the X-Forwarded-For its rate limits count. Notes the problem.
 */
function wideListProblem(entries: readonly string[], name: string, read: EnvReader): boolean {
  const ranges = proxyRanges(entries);
  const wide = tooWideEntries(ranges);
  if (wide.length > 0) {
    read.problems.push(`${name} must name proxies, not whole networks: ${wide.join(', ')} ${wide.length === 1 ? 'is' : 'are'} wider than a /8 of IPv4 or a /32 of IPv6 addresses`);
    return true;
  }
  const everything = coveredEverything(ranges) ?? coveredTooMuch(ranges);
  if (everything) read.problems.push(`${name} must name proxies, not everyone: together its entries cover ${everything}`);
  return everything !== undefined;
}

const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_PRESETS.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
