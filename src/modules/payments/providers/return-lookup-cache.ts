import type { GatewayLookup } from './gateway';

/** How long a provider's answer to a browser return is reused for the same attempt. */
export const RETURN_LOOKUP_TTL_MS = 10_000;

/** Attempts remembered at most; the oldest are forgotten first. */
const MAX_ENTRIES = 10_000;

/**
 * The provider's word on an attempt, asked for a browser return and reused for a few seconds.
 * A return URL is public and its query can be replayed, so without this every hit on it would be
 * one call to the provider's status API: a reloading customer, or anyone with the link, could
 * make us hammer the provider with our credentials. The promise itself is kept, so hits that
 * arrive together share one call, and a failure (provider down) is reused too: the customer goes
 * back either way, and reconciliation asks again later. Returns use one per provider; payment-status
 * one per process (PAYMENT_STATUS_LOOKUP_SECONDS), so a partner polling an open checkout asks the
 * provider at most once per attempt in that time; the payment watch always asks afresh.
 */
export class ReturnLookupCache {
  private readonly entries = new Map<string, { expiresAt: number; answer: Promise<GatewayLookup> }>();

  constructor(
    private readonly ttlMs = RETURN_LOOKUP_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  lookup(paymentRef: string, ask: () => Promise<GatewayLookup>): Promise<GatewayLookup> {
    const now = this.now();
    const cached = this.entries.get(paymentRef);
    if (cached && cached.expiresAt > now) return cached.answer;
    this.forgetExpired(now);
    const answer = ask();
    // An unhandled rejection must not escape from a cached promise nobody awaits again.
    answer.catch(() => undefined);
    this.entries.delete(paymentRef);
    this.entries.set(paymentRef, { expiresAt: now + this.ttlMs, answer });
    return answer;
  }

  /** Entries are in the order they were made, which with one TTL is the order they expire. */
  private forgetExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now && this.entries.size < MAX_ENTRIES) break;
      this.entries.delete(key);
    }
  }
}
