import {
  backoffDelayMs,
  isRetryableStatus,
  isSafeToResend,
  retryAfterMs,
} from '../../clients/typescript/src/retry-policy';
import { TokenCache } from '../../clients/typescript/src/token-cache';

describe('client retry rules (the error handling of spec/openapi.yaml)', () => {
  const options = { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('retries 500 and 429, never 400, 403, 404 or 409', () => {
    expect([500, 502, 503, 504, 429].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 501].some(isRetryableStatus)).toBe(false);
  });

  it('doubles the wait on each retry up to the cap', () => {
    const top = () => 1; // the random half at its largest
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelayMs(attempt, options, top))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('spreads clients out: at least half of each wait, the rest random', () => {
    expect(backoffDelayMs(3, options, () => 0)).toBe(200);
    expect(backoffDelayMs(3, options, () => 0.5)).toBe(300);
  });

  it('honours Retry-After in seconds, within the cap', () => {
    expect(retryAfterMs('1', options)).toBe(1_000);
    expect(retryAfterMs('120', options)).toBe(1_000);
    expect(retryAfterMs('soon', options)).toBeUndefined();
    expect(retryAfterMs(null, options)).toBeUndefined();
  });

  it('resends after a network failure only what cannot duplicate: reads, deletes and keyed pays', () => {
    expect(isSafeToResend('GET', new Headers())).toBe(true);
    expect(isSafeToResend('DELETE', new Headers())).toBe(true);
    expect(isSafeToResend('PATCH', new Headers())).toBe(true); // a date change: the current date changes nothing
    expect(isSafeToResend('POST', new Headers({ 'Idempotency-Key': 'b9a3f0c2-5d41-4e8a-9f6b-2c7d8e1a3b40' }))).toBe(
      true,
    );
    expect(isSafeToResend('POST', new Headers())).toBe(false); // POST /orders: reconcile first
  });
});

describe('client token cache', () => {
  let clock = 0;
  let issued = 0;
  const cache = (expiresIn = 3600, refreshBefore = 60) =>
    new TokenCache(
      async () => {
        issued += 1;
        return { accessToken: `token-${issued}`, expiresIn };
      },
      refreshBefore,
      () => clock,
    );
  beforeEach(() => {
    clock = 0;
    issued = 0;
  });

  it('shares one token request between concurrent callers', async () => {
    const tokens = cache();
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(['token-1', 'token-1', 'token-1']);
    expect(issued).toBe(1);
  });

  it('renews slightly before expiry, not after', async () => {
    const tokens = cache(3600, 60);
    await tokens.get();
    clock = 3539_000;
    expect(await tokens.get()).toBe('token-1');
    clock = 3540_000;
    expect(await tokens.get()).toBe('token-2');
  });

  it('renews half-way through a lifetime shorter than twice the margin', async () => {
    const tokens = cache(60, 60);
    await tokens.get();
    clock = 30_000;
    expect(await tokens.get()).toBe('token-2');
  });

  it('drops a refused token, but not one that already replaced it', async () => {
    const tokens = cache();
    await tokens.get();
    tokens.discard('token-1');
    expect(await tokens.get()).toBe('token-2');
    tokens.discard('token-1');
    expect(await tokens.get()).toBe('token-2');
  });
});
