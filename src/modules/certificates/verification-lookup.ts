import type { RequestScope } from '../../kernel/http/request-scope';
import type { RateDecision } from '../../kernel/rate-limits/rate-limiter';

/**
 * GET /verify/{policyNumber} counts lookups per client address (with TRUST_PROXY, the one the
 * load balancer saw): the page is public, so this is what bounds walking the policy numbers.
 * The handler answers a refusal itself, with an HTML page a phone can show.
 */
export async function verificationLookup(scope: RequestScope): Promise<RateDecision> {
  const { config, rateLimiter, metrics } = scope.services;
  const address = scope.req.ip ?? 'unknown';
  const decision = await rateLimiter.hit(scope.em, [
    { key: `verify:address:${address}`, limit: config.rateLimits.verifyPerAddress },
  ]);
  if (!decision.allowed) metrics.rateLimited.inc({ operation: 'verifyPolicy' });
  return decision;
}
