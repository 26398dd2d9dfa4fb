import type { Logger } from '../../../kernel/logging/logger';
import { ProviderUnavailableError } from './gateway';
import { isRecord } from '../../../kernel/narrow';

/** How every call to a payment provider is bounded. */
export interface ProviderCallPolicy {
  timeoutMs: number;
  /** Tries of an idempotent call (lookups, status checks); initiations are tried once. */
  lookupAttempts: number;
  logger: Logger;
}

export interface ProviderAnswer {
  status: number;
  body: unknown;
}

/**
 * One HTTP call to a provider, never longer than `timeoutMs` (AbortSignal.timeout covers the
 * connection, the headers and the body). Any status comes back with its parsed JSON body; a
 * timeout, a refused connection or a body that is not JSON is a ProviderUnavailableError.
 */
export async function callProvider(
  provider: string,
  url: string,
  init: RequestInit,
  policy: ProviderCallPolicy,
): Promise<ProviderAnswer> {
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(policy.timeoutMs) });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const kind = timedOut ? 'TIMEOUT' : 'UNREACHABLE';
    const elapsedMs = Math.round(performance.now() - started);
    // The path only: a status-check URL carries the merchant code, never a secret, but keep logs lean.
    policy.logger.warn({ provider, endpoint: new URL(url).pathname, kind, elapsedMs }, 'payment provider call failed');
    throw new ProviderUnavailableError(
      provider,
      kind,
      timedOut ? `no answer within ${policy.timeoutMs} ms` : 'connection failed',
    );
  }
  try {
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  } catch {
    policy.logger.warn(
      { provider, endpoint: new URL(url).pathname, status: response.status },
      'payment provider answered with a body that is not JSON',
    );
    throw new ProviderUnavailableError(provider, 'BAD_ANSWER', `HTTP ${response.status} without a JSON body`);
  }
}

/**
 * Runs an idempotent provider call up to `lookupAttempts` times while it is unavailable, with a
 * short pause between tries. Only lookups come here: a retried initiation could open two checkouts.
 */
export async function withLookupRetries<T>(policy: ProviderCallPolicy, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError) || attempt >= policy.lookupAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** Narrows a provider's JSON body to a record without trusting any field. */
export function asRecord(body: unknown): Record<string, unknown> {
  return isRecord(body) && !Array.isArray(body) ? body : {};
}
