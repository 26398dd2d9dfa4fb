import type { EnvReader } from '../../kernel/settings/env-reader';

/** Partner webhooks; see docs/webhooks.md. */
export interface WebhookConfig {
  /** A delivery that has not answered by then counts as failed (and is retried). */
  timeoutMs: number;
  /** First retry after about this long; each next one waits about twice as long (pg-boss back-off). */
  retryDelaySeconds: number;
  /** The back-off stops doubling here. */
  retryDelayMaxSeconds: number;
  /** Retries after the first try; with the defaults they span about a day. */
  retryLimit: number;
  /** Deliveries one process sends at once. */
  concurrency: number;
  /**
   * Deliveries of one company in flight at once, across every process: a company whose endpoint
   * hangs holds at most this many workers, and the others stay free for everyone else.
   */
  concurrencyPerCompany: number;
  /** How long the replaced secret still signs deliveries after `ops webhook rotate-secret`. */
  secretOverlapHours: number;
  /**
   * Sandbox only, and only where the operator says so (WEBHOOK_ALLOW_PRIVATE_ENDPOINTS; the
   * embedded default of `npm start` does): endpoints may be plain HTTP and on loopback, private
   * or metadata addresses (local receivers, tests). A sandbox offered to partners leaves it off,
   * or any partner could probe the service's own network through its delivery log.
   */
  allowLocalEndpoints: boolean;
}

export function webhooksConfig(read: EnvReader, { paymentMode, sandboxByDefault }: { paymentMode: 'sandbox' | 'live'; sandboxByDefault: boolean }): WebhookConfig {
  const allowPrivate = read.boolean('WEBHOOK_ALLOW_PRIVATE_ENDPOINTS', sandboxByDefault && paymentMode === 'sandbox');
  if (allowPrivate && paymentMode !== 'sandbox') read.problems.push('WEBHOOK_ALLOW_PRIVATE_ENDPOINTS=true needs PAYMENT_MODE=sandbox: live endpoints must be public HTTPS addresses');
  return {
    timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    retryDelaySeconds: read.integer('WEBHOOK_RETRY_DELAY_SECONDS', 60, 1, 3600),
    retryDelayMaxSeconds: read.integer('WEBHOOK_RETRY_DELAY_MAX_SECONDS', 4 * 3600, 1, 86400),
    retryLimit: read.integer('WEBHOOK_RETRY_LIMIT', 13, 0, 50),
    concurrency: read.integer('WEBHOOK_CONCURRENCY', 50, 1, 200),
    concurrencyPerCompany: read.integer('WEBHOOK_CONCURRENCY_PER_COMPANY', 5, 1, 200),
    secretOverlapHours: read.integer('WEBHOOK_SECRET_OVERLAP_HOURS', 24, 0, 24 * 30),
    allowLocalEndpoints: allowPrivate && paymentMode === 'sandbox',
  };
}
