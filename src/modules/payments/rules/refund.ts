import type { Minor } from '../../../kernel/money';

/**
 * Refund rules (DESIGN "After the sale: cancellation", "Refunds that happen"): pure, no I/O.
 */
export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'MANUAL';

/**
 * Why money goes back: a cancellation of a paid order; a capture that came after the attempt was
 * closed (it paid nothing); a refund or reversal made at the provider that the reversal watch found.
 */
export type RefundCause = 'CANCELLATION' | 'LATE_CAPTURE' | 'PROVIDER_REVERSAL';

/** The reference format `RFD-<year>-<seq>`, six digits at least. */
export function formatRefundRef(year: string, sequence: number | string): string {
  if (!/^\d{4}$/.test(year)) throw new Error(`Not a four-digit year: ${year}`);
  const digits = String(sequence);
  if (!/^[1-9]\d*$/.test(digits)) throw new Error(`Not a positive sequence number: ${digits}`);
  return `RFD-${year}-${digits.padStart(6, '0')}`;
}

export const isRefundRef = (value: string): boolean => /^RFD-\d{4}-\d+$/.test(value);

/** Statuses after which the executor never asks the provider again. */
export const isFinalRefundStatus = (status: RefundStatus): boolean => status === 'SUCCEEDED' || status === 'FAILED';

/**
 * Seconds until the next try after `tries` failed ones: 15 s doubling, at most an hour, so a
 * provider outage of a day costs about 30 calls and a short blip is retried within a minute.
 */
export function refundBackoffSeconds(tries: number, baseSeconds = 15): number {
  return Math.min(3600, baseSeconds * 2 ** Math.max(0, tries - 1));
}

/** After this many tries a refund stops being retried on its own: FAILED, for the operator (`ops refund retry`). */
export const MAX_REFUND_TRIES = 12;

/** A refund's amount and fee must be whole paisa, never negative, and together the share. */
export function refundSplitProblem(share: Minor, amount: Minor, fee: Minor): string | null {
  if (!Number.isSafeInteger(amount) || !Number.isSafeInteger(fee) || amount < 0 || fee < 0) return 'amount and fee must be whole, non-negative minor units';
  if (amount + fee > share) return `amount ${amount} + fee ${fee} exceeds the share ${share}`;
  return null;
}
