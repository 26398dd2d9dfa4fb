import type { RequestScope } from '../../kernel/http/request-scope';
import { refuseOverLimit } from '../../kernel/rate-limits/operation-limits';
import type { Bucket } from '../../kernel/rate-limits/rate-limiter';
import type { TokenAttemptLimits } from './authentication';

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
    {
      key: `token:failures:client-address:${JSON.stringify([clientId, address])}`,
      limit: limits.tokenPerClientAddress,
    },
  ];
  return {
    reserve: async () => refuseOverLimit('issueToken', await rateLimiter.hit(scope.em, failures), scope),
    accept: async () => {
      await rateLimiter.release(scope.em, failures);
      const issued = await rateLimiter.hit(scope.em, [
        { key: `token:client:${clientId}`, limit: limits.tokenPerClient },
      ]);
      refuseOverLimit('issueToken', issued, scope);
    },
  };
}
