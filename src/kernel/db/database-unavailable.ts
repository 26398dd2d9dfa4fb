import { ConnectionException } from '@mikro-orm/core';
import { isRecord, stringField } from '../narrow';

/** Socket failures on the way to PostgreSQL: it is down, restarting or out of reach. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exceptions), 57P01–57P03
 * (shutdown, crash shutdown, cannot connect now: a restart or recovery) and 53300 (too many
 * connections).
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;

/** What pg and pg-pool say when a connection died under them or none could be had; they carry no code. */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether `error` says the database could not be reached, rather than refusing a statement: an
 * outage, answered 503 with Retry-After, where a failed statement is a defect (500). MikroORM
 * wraps the driver's error (ConnectionException, or `cause`); pg-pool aggregates per address.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!isRecord(error) || depth > 5) return false;
  if (error instanceof ConnectionException) return true;
  const code = stringField(error, 'code');
  if (code !== undefined && (SOCKET_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
  if (LOST_CONNECTION.test(stringField(error, 'message') ?? '')) return true;
  const inner: unknown[] = Array.isArray(error.errors) ? error.errors : [];
  return isDatabaseUnavailable(error.cause, depth + 1) || inner.some((each) => isDatabaseUnavailable(each, depth + 1));
}
