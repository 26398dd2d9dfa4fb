import type { RateLimitConfig } from './settings';
import type { TokenAttemptLimits } from '../../modules/auth';
import type { Bucket, RateDecision } from './rate-limiter';
import type { RequestScope } from '../http/request-scope';
import { PROMO_OPERATION_IDS } from '../../modules/promos';
import { tooMany } from '../errors';

/**
 * The writes a partner could repeat in a loop, each counted per company and window: every one
 * costs storage, rows or a gateway call. Reads are not limited, but for the certificate.
 */
const WRITE_LIMITS: Record<string, { counter: string; limit: (limits: RateLimitConfig) => number }> = {
  uploadDocument: { counter: 'upload', limit: (limits) => limits.uploadPerCompany },
  createQuote: { counter: 'quote', limit: (limits) => limits.quotePerCompany },
  createOrders: { counter: 'order', limit: (limits) => limits.orderPerCompany },
  registerTravellers: { counter: 'traveller', limit: (limits) => limits.travellerPerCompany },
  payOrder: { counter: 'pay', limit: (limits) => limits.payPerCompany },
  payGroup: { counter: 'pay', limit: (limits) => limits.payPerCompany },
  // The one read that costs: a certificate PDF takes milliseconds of CPU, so one partner's loop cannot starve the others.
  getOrderCertificate: { counter: 'certificate', limit: (limits) => limits.certificatePerCompany },
};

const uploadBytesBucket = (companyId: string, limits: RateLimitConfig, cost: number): Bucket => ({
  key: `upload-bytes:company:${companyId}`,
  limit: limits.uploadBytesPerCompany,
  cost,
});

/**
 * Which counters a request of each limited operation counts against before its handler runs:
 * promo requests per company, which bounds probing for valid codes; the writes of WRITE_LIMITS;
 * and for an upload, whether the company's byte quota is already spent. Token requests are
 * counted by their handler (tokenAttemptLimits), which alone knows whether the secret was right.
 */
export function bucketsFor(operationId: string, scope: RequestScope, limits: RateLimitConfig): Bucket[] {
  const companyId = scope.principal?.companyId;
  if (companyId === undefined) return [];
  if (PROMO_OPERATION_IDS.has(operationId)) return [{ key: `promo:company:${companyId}`, limit: limits.promoPerCompany }];
  const write = WRITE_LIMITS[operationId];
  if (!write) return [];
  const buckets: Bucket[] = [{ key: `${write.counter}:company:${companyId}`, limit: write.limit(limits) }];
  if (operationId === 'uploadDocument') buckets.push(uploadBytesBucket(companyId, limits, 0));
  return buckets;
}

/**
 * Adds a stored document's bytes to its company's byte quota. The size is known only once the
 * bytes are in, so uploads in flight when the quota runs out still land: the quota can be passed
 * by at most one file (MAX_UPLOAD_BYTES) per concurrent upload, and the next upload is refused.
 */
export async function countUploadedBytes(scope: RequestScope, bytes: number): Promise<void> {
  const { config, rateLimiter } = scope.services;
  const companyId = scope.principal?.companyId;
  if (companyId === undefined) return;
  await rateLimiter.hit(scope.em, [uploadBytesBucket(companyId, config.rateLimits, bytes)]);
}

/**
 * POST /auth/token: wrong secrets (and unknown clientIds) count against the client address (with
 * TRUST_PROXY, the one the load balancer saw) and against the clientId from that address, which
 * bounds guessing and the CPU it costs; a partner's right secret from its own address still gets
 * a token while a stranger hammers its clientId. Tokens issued count against the clientId: only
 * the holder of the secret can run that count up.
 */
export function tokenAttemptLimits(scope: RequestScope, clientId: string): TokenAttemptLimits {
  const { config, rateLimiter } = scope.services;
  const limits = config.rateLimits;
  const address = scope.req.ip ?? 'unknown';
  const failures: Bucket[] = [
    { key: `token:failures:address:${address}`, limit: limits.tokenPerAddress },
    { key: `token:failures:client-address:${JSON.stringify([clientId, address])}`, limit: limits.tokenPerClientAddress },
  ];
  return {
    reserve: async () => refuseOverLimit('issueToken', await rateLimiter.hit(scope.em, failures), scope),
    accept: async () => {
      await rateLimiter.release(scope.em, failures);
      const issued = await rateLimiter.hit(scope.em, [{ key: `token:client:${clientId}`, limit: limits.tokenPerClient }]);
      refuseOverLimit('issueToken', issued, scope);
    },
  };
}

/**
 * GET /verify/{policyNumber} counts lookups per client address (with TRUST_PROXY, the one the
 * load balancer saw): the page is public, so this is what bounds walking the policy numbers.
 * The handler answers a refusal itself, with an HTML page a phone can show.
 */
export async function verificationLookup(scope: RequestScope): Promise<RateDecision> {
  const { config, rateLimiter, metrics } = scope.services;
  const address = scope.req.ip ?? 'unknown';
  const decision = await rateLimiter.hit(scope.em, [{ key: `verify:address:${address}`, limit: config.rateLimits.verifyPerAddress }]);
  if (!decision.allowed) metrics.rateLimited.inc({ operation: 'verifyPolicy' });
  return decision;
}

/** Counts the request against its buckets; over a limit it is a shape-2 429 with Retry-After. */
export async function enforceRateLimit(operationId: string, scope: RequestScope): Promise<void> {
  const { config, rateLimiter } = scope.services;
  const buckets = bucketsFor(operationId, scope, config.rateLimits);
  if (buckets.length === 0) return;
  refuseOverLimit(operationId, await rateLimiter.hit(scope.em, buckets), scope);
}

function refuseOverLimit(operationId: string, decision: RateDecision, scope: RequestScope): void {
  if (decision.allowed) return;
  scope.services.metrics.rateLimited.inc({ operation: operationId });
  throw tooMany('Too many requests, retry later', decision.retryAfterSeconds);
}
