import type { Minor } from '../../../kernel/money';

/**
 * A refund's life (decision records 0062 and 0075): one machine, pure, no I/O.
 *
 *   PENDING --CLAIM--> PENDING, claimed (tries + 1, leased: one caller at the provider at a time)
 *   PENDING --RETRY_LATER--> PENDING          the provider could not be reached; back off
 *   PENDING --SUCCEED--> SUCCEEDED            the provider gave the money back (or nothing was owed)
 *   PENDING --NEED_OPERATOR--> MANUAL         no refund API, or something only a person can judge
 *   PENDING --FAIL--> FAILED                  refused for good, or retried for REFUND_RETRY_DAYS with every try's outcome known
 *   PENDING --NEED_OPERATOR--> MANUAL         retried for REFUND_RETRY_DAYS with a try's outcome unknown (check the portal)
 *   MANUAL  --FAIL--> FAILED                  the provider refused what waited for it (the sandbox's answer)
 *   FAILED  --RETRY--> PENDING                an operator asks for another try
 *   MANUAL | FAILED --CONFIRM--> SUCCEEDED    an operator gave the money back by hand, with a note
 *   PENDING | MANUAL | FAILED --FOUND_AT_PROVIDER--> SUCCEEDED
 *                                             the provider reports this money back (reversal watch)
 *
 * refund-life.ts's `moveRefund` is the one function that applies a step, with its audit entry
 * and event; no other code writes a refund's status.
 */
export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'MANUAL';

/**
 * Why money goes back: a cancellation of a paid order; a capture that came after the attempt was
 * closed (it paid nothing); a refund or reversal made at the provider that the reversal watch found.
 */
/** TOP_UP_REFUND: an extension's top-up given back on its own by the operator (decision record 0099). */
export type RefundCause = 'CANCELLATION' | 'LATE_CAPTURE' | 'PROVIDER_REVERSAL' | 'TOP_UP_REFUND';

export type RefundStep =
  'RETRY_LATER' | 'SUCCEED' | 'NEED_OPERATOR' | 'FAIL' | 'RETRY' | 'CONFIRM' | 'FOUND_AT_PROVIDER';

const MOVES: Readonly<Record<RefundStep, { from: readonly RefundStatus[]; to: RefundStatus }>> = {
  RETRY_LATER: { from: ['PENDING'], to: 'PENDING' },
  SUCCEED: { from: ['PENDING'], to: 'SUCCEEDED' },
  NEED_OPERATOR: { from: ['PENDING'], to: 'MANUAL' },
  FAIL: { from: ['PENDING', 'MANUAL'], to: 'FAILED' },
  RETRY: { from: ['FAILED'], to: 'PENDING' },
  CONFIRM: { from: ['MANUAL', 'FAILED'], to: 'SUCCEEDED' },
  FOUND_AT_PROVIDER: { from: ['PENDING', 'MANUAL', 'FAILED'], to: 'SUCCEEDED' },
};

/** The status a step leads to from `from`, or why it may not be taken. */
export function refundStep(from: RefundStatus, step: RefundStep): { to: RefundStatus } | { refused: string } {
  const move = MOVES[step];
  if (!move.from.includes(from))
    return { refused: `a ${from} refund cannot take the step ${step} (only from ${move.from.join(' or ')})` };
  return { to: move.to };
}

/** The reference format `RFD-<year>-<seq>`, six digits at least. */
export function formatRefundRef(year: string, sequence: number | string): string {
  if (!/^\d{4}$/.test(year)) throw new Error(`Not a four-digit year: ${year}`);
  const digits = String(sequence);
  if (!/^[1-9]\d*$/.test(digits)) throw new Error(`Not a positive sequence number: ${digits}`);
  return `RFD-${year}-${digits.padStart(6, '0')}`;
}

export const isRefundRef = (value: string): boolean => /^RFD-\d{4}-\d+$/.test(value);

/**
 * Seconds until the next try after `tries` failed ones: 15 s doubling, at most an hour, so a
 * provider outage of a day costs about 30 calls and a short blip is retried within a minute.
 */
export function refundBackoffSeconds(tries: number, baseSeconds = 15): number {
  return Math.min(3600, baseSeconds * 2 ** Math.max(0, tries - 1));
}

/** The pause between two tries of one lookup (provider-http's withLookupRetries): 100 ms times the try just failed. */
const LOOKUP_PAUSE_MS = 100;

/** What the executor's own work around a provider call may take (database round trips, a slow pool): the lease's margin. */
const LEASE_MARGIN_SECONDS = 30;

/**
 * The longest one refund try can spend at a provider with these settings
 * (PAYMENT_PROVIDER_LOOKUP_ATTEMPTS, PAYMENT_PROVIDER_TIMEOUT_MS), in milliseconds: Khalti's, the
 * longest of the adapters — the payment lookup and the transaction detail, each tried up to
 * `lookupAttempts` times, every try timing out, with the pauses between tries; then the refund
 * call, sent once, timing out too. Decision 0091.
 */
export function worstRefundTryMs(lookupAttempts: number, timeoutMs: number): number {
  const pauses = (LOOKUP_PAUSE_MS * lookupAttempts * (lookupAttempts - 1)) / 2;
  const oneLookup = lookupAttempts * timeoutMs + pauses;
  return 2 * oneLookup + timeoutMs;
}

/**
 * Seconds the executor's claim holds a refund: its worst try at the provider (worstRefundTryMs)
 * and a margin, derived from the settings so that no allowed setting lets a claim run out while
 * its provider call goes on (a second process would then send a second refund call).
 */
export function refundLeaseSeconds(lookupAttempts: number, timeoutMs: number): number {
  return Math.ceil(worstRefundTryMs(lookupAttempts, timeoutMs) / 1000) + LEASE_MARGIN_SECONDS;
}

/**
 * Whether a refund whose `tries` all met an unavailable provider stops being retried on its own
 * (FAILED for the operator, or MANUAL when a try's outcome is unknown): once its back-offs add up to `retryDays` (REFUND_RETRY_DAYS, 3), so
 * that a provider outage of a day or two delays refunds rather than failing them all.
 */
export function refundRetriesExhausted(tries: number, retryDays: number, baseSeconds = 15): boolean {
  let waited = 0;
  for (let done = 1; done < tries; done += 1) waited += refundBackoffSeconds(done, baseSeconds);
  return waited >= retryDays * 86400;
}

/**
 * A refund's amount and fee must be whole paisa, never negative, and together at most what is
 * left of the share: the share less every other refund of it not FAILED (decision 0091).
 */
export function refundSplitProblem(left: Minor, amount: Minor, fee: Minor): string | null {
  if (!Number.isSafeInteger(amount) || !Number.isSafeInteger(fee) || amount < 0 || fee < 0)
    return 'amount and fee must be whole, non-negative minor units';
  if (amount + fee > left)
    return `amount ${amount} + fee ${fee} exceeds what is left of the share: ${Math.max(0, left)}`;
  return null;
}
