/**
 * The retry rules of SPEC section 7, decided from the HTTP status and the request alone, never
 * from an error `message`.
 */
export interface RetryOptions {
  /** Attempts in total for one call, the first included. */
  maxAttempts: number;
  /** Delay before the first retry; doubles on each further one. */
  baseDelayMs: number;
  /** No wait between attempts is longer than this (Retry-After included). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000 };

/** 500 (and the gateway statuses a proxy in front can answer with) are worth another try; 429 after Retry-After. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/**
 * After a network failure the request may or may not have been processed. Retrying is safe for
 * reads and deletes, for a pay carrying an Idempotency-Key (the same key resumes the same
 * attempt), and for PATCH (a date change to the order's current date changes nothing). POST /orders has no key: a blind retry could create a duplicate order, so the
 * caller must reconcile first (the Retries table of the contract, "Network timeout").
 */
export function isSafeToResend(method: string, headers: Headers): boolean {
  return ['GET', 'HEAD', 'DELETE', 'PATCH'].includes(method.toUpperCase()) || headers.has('idempotency-key');
}

/** Exponential backoff, capped, with jitter (half of each wait is random) so clients spread out; attempt 1 is the first retry. */
export function backoffDelayMs(attempt: number, options: RetryOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After in seconds (the only form this service sends), capped like any other wait. */
export function retryAfterMs(header: string | null, options: RetryOptions): number | undefined {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Math.min(options.maxDelayMs, Number(header) * 1000);
}
