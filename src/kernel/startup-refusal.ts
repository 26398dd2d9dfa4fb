import { isRecord, stringField } from './narrow';

/**
 * A reason the server will not serve, stated for the operator in one line (no stack trace):
 * main.ts and cluster.ts print the message and exit with code 2, like a configuration error.
 */
export class StartupRefusal extends Error {}

/** What a start was asked to use: enough to name the port and the database in a refusal. */
interface StartTarget {
  host: string;
  port: number;
  databaseUrl?: string;
  dataDir: string;
}

type Failure = { code: string; syscall?: string };

/** The first error code in an error, its cause or its aggregated errors (pg tries every address of a host). */
function codeOf(error: unknown, depth = 0): Failure | undefined {
  if (!isRecord(error) || depth > 4) return undefined;
  const code = stringField(error, 'code');
  if (code) return { code, syscall: stringField(error, 'syscall') };
  const inner = Array.isArray(error.errors) ? error.errors : [];
  return codeOf(error.cause, depth + 1) ?? inner.map((each: unknown) => codeOf(each, depth + 1)).find(Boolean);
}

/** Where the database is, for the operator, without the credentials of DATABASE_URL. */
function databaseLocation(config: Pick<StartTarget, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `the embedded PostgreSQL under ${config.dataDir}`;
  try {
    const url = new URL(config.databaseUrl);
    return `the database at ${url.hostname}:${url.port || 5432}${url.pathname} (DATABASE_URL)`;
  } catch {
    return 'the database of DATABASE_URL';
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * One line an operator can act on, for the usual reasons a start fails (the port, the database),
 * and the error's own message for the rest. main.ts prints it and exits non-zero.
 */
export function startupFailureLine(error: unknown, config: StartTarget): string {
  const failure = codeOf(error);
  const code = failure?.code ?? '';
  if (code === 'EADDRINUSE')
    return `cannot start: port ${config.port} on ${config.host} is already in use (stop the other process, or set PORT)`;
  if (code === 'EACCES' && failure?.syscall === 'listen')
    return `cannot start: no permission to listen on port ${config.port} (choose a port above 1023 with PORT)`;
  if (code === 'EADDRNOTAVAIL') return `cannot start: HOST ${config.host} is not an address of this machine`;
  if (UNREACHABLE.has(code))
    return `cannot start: ${databaseLocation(config)} cannot be reached (${code}); check that PostgreSQL runs and DATABASE_URL points at it`;
  if (code === '28P01' || code === '28000')
    return `cannot start: ${databaseLocation(config)} refused the user and password of DATABASE_URL`;
  if (code === '3D000')
    return `cannot start: ${databaseLocation(config)} does not exist; create it or correct DATABASE_URL`;
  const message = error instanceof Error ? error.message : String(error);
  return `cannot start: ${message.split('\n')[0]}`;
}
