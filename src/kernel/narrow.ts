import type { AddressInfo } from 'node:net';

/**
 * Narrowing for values whose type the compiler cannot know (parsed JSON, thrown things, driver
 * results), by checking them instead of asserting with `as`.
 */

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

export const isOneOf = <T extends string>(allowed: readonly T[], value: unknown): value is T =>
  allowed.some((item) => item === value);

/** A thrown value's message, whatever was thrown. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A field of a thrown value or a record, when it is a string. */
export const stringField = (value: unknown, key: string): string | undefined => {
  const field = isRecord(value) ? value[key] : undefined;
  return typeof field === 'string' ? field : undefined;
};

/** The port a listening server was given (a TCP server's address is never a pipe name here). */
export function listeningPort(server: { address(): string | AddressInfo | null }): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  return address.port;
}

/** A value a preceding check guaranteed (a map filled from the same ids); its absence is a bug. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}
