import type { RequestScope } from '../../kernel/http/request-scope';
import type { RateDecision } from '../../kernel/rate-limits/rate-limiter';

/**
 * A live provider's browser return is a public link whose every hit may cost a call to the
 * provider's status API: hits are counted per client address (with TRUST_PROXY, the one the
 * load balancer saw), before anything is asked. The handler answers a refusal itself, with a page.
 */
export async function providerReturnLookup(scope: RequestScope): Promise<RateDecision> {
  const { config, rateLimiter, metrics } = scope.services;
  const address = scope.req.ip ?? 'unknown';
  const decision = await rateLimiter.hit(scope.em, [
    { key: `provider-return:address:${address}`, limit: config.rateLimits.providerReturnPerAddress },
  ]);
  if (!decision.allowed) metrics.rateLimited.inc({ operation: 'handleProviderReturn' });
  return decision;
}
