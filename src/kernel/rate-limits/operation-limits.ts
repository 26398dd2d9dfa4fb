import type { OperationPolicy } from '../http/operation-policy';
import type { RequestScope } from '../http/request-scope';
import type { Bucket, RateDecision } from './rate-limiter';
import type { RateLimitConfig } from './settings';
import { tooMany } from '../errors';

/** One company's count of one counter: the key every server process counts in. */
export function companyBucket(counter: string, companyId: string, limit: number, cost?: number): Bucket {
  const bucket: Bucket = { key: `${counter}:company:${companyId}`, limit };
  if (cost !== undefined) bucket.cost = cost;
  return bucket;
}

/**
 * The counters a request counts against before its handler runs, per its operation's policy.
 * An unauthenticated request counts nowhere: token requests are counted by their handler (auth's
 * token attempt limits), which alone knows whether the secret was right.
 */
function bucketsFor(policy: OperationPolicy | undefined, scope: RequestScope, limits: RateLimitConfig): Bucket[] {
  const companyId = scope.principal?.companyId;
  if (companyId === undefined || !policy?.rateLimits) return [];
  return policy.rateLimits.map((rule) => companyBucket(rule.counter, companyId, rule.limit(limits), rule.cost));
}

/** Counts the request against its policy's counters; over a limit it is a shape-2 429 with Retry-After. */
export async function enforceRateLimit(
  operationId: string,
  policy: OperationPolicy | undefined,
  scope: RequestScope,
  limits: RateLimitConfig,
): Promise<void> {
  const buckets = bucketsFor(policy, scope, limits);
  if (buckets.length === 0) return;
  refuseOverLimit(operationId, await scope.services.rateLimiter.hit(scope.em, buckets), scope);
}

export function refuseOverLimit(operationId: string, decision: RateDecision, scope: RequestScope): void {
  if (decision.allowed) return;
  scope.services.metrics.rateLimited.inc({ operation: operationId });
  throw tooMany('Too many requests, retry later', decision.retryAfterSeconds);
}
