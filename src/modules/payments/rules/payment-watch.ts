import type { AttemptStatus, ClosedReason, ProviderReversalKind, ShareSettlement } from './payment-attempt';
import type { Minor } from '../../../kernel/money';
import type { WatchSettings } from '../settings';

/**
 * The payment watch: which attempts we keep asking their provider about, until when, and how
 * often. Two phases:
 * - UNDECIDED: the provider has not given its final word (Khalti `Pending`/`Initiated`, eSewa
 *   `PENDING`/`AMBIGUOUS`, a sandbox wallet link still payable): open attempts, and those we
 *   closed ourselves, watched for PROVIDER_DECISION_WATCH_DAYS after they closed, so a capture
 *   that comes days late is still settled (or owed back);
 * - PAID: a captured attempt, looked up again for PAYMENT_REVERSAL_WATCH_DAYS after its capture,
 *   so a refund or reversal made at the provider reaches the order.
 */
export type WatchPhase = 'UNDECIDED' | 'PAID';

export interface WatchedAttempt {
  status: AttemptStatus;
  gateway: string;
  gatewayConfirmed: boolean;
  closedReason?: ClosedReason | null;
  createdAt: Date;
  completedAt?: Date | null;
  expiresAt: Date;
  providerReversal?: ProviderReversalKind | null;
}

const DAY_MS = 86_400_000;

/** The phase the attempt is watched in, or undefined when nothing is left to ask its provider. */
export function watchPhase(attempt: WatchedAttempt): WatchPhase | undefined {
  // Cash is the operator's word, final at birth: there is no provider to ask.
  if (attempt.gateway === 'cash') return undefined;
  if (!attempt.gatewayConfirmed && attempt.status === 'INITIATED') return 'UNDECIDED';
  if (
    !attempt.gatewayConfirmed &&
    (attempt.status === 'CANCELLED' || attempt.status === 'EXPIRED') &&
    attempt.closedReason
  )
    return 'UNDECIDED';
  // A full reversal ends the story; a partial one may still become full.
  if (attempt.status === 'SUCCESS' && attempt.providerReversal !== 'FULL') return 'PAID';
  return undefined;
}

/** When the watch of the attempt in `phase` ends: days after it closed (or was captured). */
export function watchEnds(attempt: WatchedAttempt, phase: WatchPhase, settings: WatchSettings): Date {
  const since = attempt.completedAt ?? attempt.createdAt;
  const days = phase === 'UNDECIDED' ? settings.decisionWatchDays : settings.reversalWatchDays;
  // An open attempt is watched at least until it would have closed.
  const from =
    phase === 'UNDECIDED' && attempt.status === 'INITIATED'
      ? Math.max(since.getTime(), attempt.expiresAt.getTime())
      : since.getTime();
  return new Date(from + days * DAY_MS);
}

/**
 * When to ask next, after `checks` lookups that left the attempt in `phase`: the first pause
 * doubled per lookup, capped; never after the end of the watch (its last lookup falls on that
 * end), and for an open attempt never after its expiry, which closes it through its gateway.
 */
export function nextCheckAt(
  attempt: WatchedAttempt,
  phase: WatchPhase,
  checks: number,
  now: Date,
  settings: WatchSettings,
): Date {
  const [first, max] =
    phase === 'UNDECIDED'
      ? [settings.decisionFirstSeconds, settings.decisionMaxSeconds]
      : [settings.reversalFirstSeconds, settings.reversalMaxSeconds];
  const pause = Math.min(max, first * 2 ** Math.min(Math.max(checks - 1, 0), 30)) * 1000;
  let next = now.getTime() + pause;
  if (phase === 'UNDECIDED' && attempt.status === 'INITIATED')
    next = Math.min(next, Math.max(attempt.expiresAt.getTime(), now.getTime()));
  return new Date(Math.min(next, Math.max(watchEnds(attempt, phase, settings).getTime(), now.getTime())));
}

/** Whether `now` is past the end of the watch: the lookup just made was the last one. */
export const watchOver = (attempt: WatchedAttempt, phase: WatchPhase, now: Date, settings: WatchSettings): boolean =>
  now.getTime() >= watchEnds(attempt, phase, settings).getTime();

/** One order's share of a payment the provider reports refunded in full. */
export interface ReversedShare {
  orderId: string;
  share: Minor;
  settlement: ShareSettlement | null;
  orderCancelled: boolean;
}

export interface ReversalPlan {
  /** Per order, what went back at the provider beyond our own refunds of its share: a refund to record. */
  remainder: Map<string, Minor>;
  /** Orders the payment paid that stand unpaid now: cancelled (PAYMENT_REVERSED). */
  cancel: string[];
}

/**
 * What a full reversal at the provider means for each share of the payment: our own refunds
 * (not failed) account for part of it, the rest went back without us (the fee a cancellation
 * kept included); every order the payment paid and still holds is cancelled.
 */
export function reversalPlan(
  shares: readonly ReversedShare[],
  ourRefunds: readonly { orderId: string; amount: Minor }[],
): ReversalPlan {
  const remainder = new Map<string, Minor>();
  const cancel: string[] = [];
  for (const share of shares) {
    const given = ourRefunds
      .filter((refund) => refund.orderId === share.orderId)
      .reduce((sum, refund) => sum + refund.amount, 0);
    remainder.set(share.orderId, Math.max(0, share.share - given));
    if (share.settlement === 'PAID' && !share.orderCancelled) cancel.push(share.orderId);
  }
  return { remainder, cancel };
}
