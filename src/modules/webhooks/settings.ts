import { z } from 'zod';
import { flag, integer, readEnv, type EnvReading } from '../../kernel/settings/env-schema';

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

const webhooksEnv = ({ allowPrivateByDefault }: { allowPrivateByDefault: boolean }) =>
  z.object({
    WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: flag().default(allowPrivateByDefault),
    WEBHOOK_TIMEOUT_MS: integer(100, 60_000).default(10_000),
    WEBHOOK_RETRY_DELAY_SECONDS: integer(1, 3600).default(60),
    WEBHOOK_RETRY_DELAY_MAX_SECONDS: integer(1, 86400).default(4 * 3600),
    WEBHOOK_RETRY_LIMIT: integer(0, 50).default(13),
    WEBHOOK_CONCURRENCY: integer(1, 200).default(50),
    WEBHOOK_CONCURRENCY_PER_COMPANY: integer(1, 200).default(5),
    WEBHOOK_SECRET_OVERLAP_HOURS: integer(0, 24 * 30).default(24),
  });

export function webhooksConfig(
  reading: EnvReading,
  { paymentMode, sandboxByDefault }: { paymentMode: 'sandbox' | 'live'; sandboxByDefault: boolean },
): WebhookConfig {
  const env = readEnv(webhooksEnv({ allowPrivateByDefault: sandboxByDefault && paymentMode === 'sandbox' }), reading);
  const allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_ENDPOINTS;
  if (allowPrivate && paymentMode !== 'sandbox')
    reading.problems.push(
      'WEBHOOK_ALLOW_PRIVATE_ENDPOINTS=true needs PAYMENT_MODE=sandbox: live endpoints must be public HTTPS addresses',
    );
  return {
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    retryDelaySeconds: env.WEBHOOK_RETRY_DELAY_SECONDS,
    retryDelayMaxSeconds: env.WEBHOOK_RETRY_DELAY_MAX_SECONDS,
    retryLimit: env.WEBHOOK_RETRY_LIMIT,
    concurrency: env.WEBHOOK_CONCURRENCY,
    concurrencyPerCompany: env.WEBHOOK_CONCURRENCY_PER_COMPANY,
    secretOverlapHours: env.WEBHOOK_SECRET_OVERLAP_HOURS,
    allowLocalEndpoints: allowPrivate && paymentMode === 'sandbox',
  };
}
