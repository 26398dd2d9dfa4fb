import type { Context } from 'openapi-backend';
import type { RateLimitConfig } from '../config';
import type { Bucket } from '../services/rate-limiter';
import type { RequestScope } from '../operations/operation';
import { PROMO_OPERATION_IDS } from '../operations/promos';
import { AppError } from './app-error';

/**
 * Which counters a request of each limited operation counts against. Token requests are counted
 * per clientId and per client address, which bounds guessing of secrets (and of the demo partners'
 * scrypt-hashed ones, the CPU they cost); promo requests per company, which bounds probing for
 * valid codes.
 */
export function bucketsFor(operationId: string, c: Context, scope: RequestScope, limits: RateLimitConfig): Bucket[] {
  if (operationId === 'issueToken') {
    const clientId = (c.request.requestBody as { clientId?: unknown } | undefined)?.clientId;
    return [
      { key: `token:client:${String(clientId)}`, limit: limits.tokenPerClient },
      { key: `token:address:${scope.req.socket.remoteAddress ?? 'unknown'}`, limit: limits.tokenPerAddress },
    ];
  }
  if (PROMO_OPERATION_IDS.has(operationId) && scope.principal) {
    return [{ key: `promo:company:${scope.principal.companyId}`, limit: limits.promoPerCompany }];
  }
  return [];
}

/** Counts the request against its buckets; over a limit it is a shape-2 429 with Retry-After. */
export async function enforceRateLimit(operationId: string, c: Context, scope: RequestScope): Promise<void> {
  const { config, rateLimiter, metrics } = scope.services;
  const buckets = bucketsFor(operationId, c, scope, config.rateLimits);
  if (buckets.length === 0) return;
  const decision = await rateLimiter.hit(scope.em, buckets);
  if (decision.allowed) return;
  metrics.rateLimited.inc({ operation: operationId });
  throw new AppError(429, 'Too many requests, retry later', undefined, 'api', { 'Retry-After': String(decision.retryAfterSeconds) });
}
