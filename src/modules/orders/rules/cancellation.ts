import { createHash } from 'node:crypto';
import { addDays, kathmanduToday } from '../../../kernel/business-date';
import type { Minor } from '../../../kernel/money';
import { businessToday } from '../../../kernel/business-today';

/**
 * The cancellation rules of decision record 0062, in Nepal business dates.
 * Pure: the use case loads the facts and applies the terms.
 */
/** A partner's reasons (the contract's CancellationReason); the operator's is OPERATOR, the reversal watch's PAYMENT_REVERSED. */
export type PartnerCancellationReason = 'TRIP_CANCELLED' | 'TRAVELLER_REQUEST' | 'DUPLICATE_BOOKING' | 'OTHER';
export type CancellationReason = PartnerCancellationReason | 'OPERATOR' | 'PAYMENT_REVERSED';

export type CancellationRule = 'UNPAID' | 'FREE_LOOK' | 'CANCELLATION_FEE' | 'COVER_STARTED' | 'ALREADY_CANCELLED';

/**
 * Who asks: a partner (the API), the operator (the CLI) without a note, which cancels only an
 * unpaid order, or with one, which may cancel a paid order even once its cover started.
 */
export type Canceller = 'PARTNER' | 'OPERATOR' | 'OPERATOR_WITH_NOTE';

export interface CancellationSettings {
  /** Days after the payment date during which a cancellation keeps no fee (FREE_LOOK_DAYS, 14). */
  freeLookDays: number;
  /** The fee after the free look, a percentage of the premium part of the order's payment share (CANCELLATION_FEE_PERCENT, 10). */
  cancellationFeePercent: number;
}

export interface CancellationFacts {
  orderRef: string;
  status: string;
  /** First day of cover (`YYYY-MM-DD`, Nepal date). */
  coverageStartDate: string;
  paidAt?: Date | null;
  /** What the order's payment took for it (its share of a group payment); 0 when unpaid. */
  paidShare: Minor;
  /**
   * The insurance premium part of that share (kernel/premium.ts): the fee's base. Included
   * equipment and partner-priced added items are not insurance and carry no fee (decision 0103).
   */
  premiumShare: Minor;
  /**
   * What refunds of that share not FAILED already hold (PENDING, MANUAL, SUCCEEDED: a partial
   * reversal at the provider the operator recorded, for instance); 0 when none. A cancellation
   * refunds what is left (decision 0091).
   */
  refundedBefore?: Minor;
  /** The provider reported part of that payment given back, without saying how much (a recorded PARTIAL reversal). */
  paymentPartlyReversed?: boolean;
  cancelledAt?: Date | null;
}

export interface CancellationTerms {
  rule: CancellationRule;
  cancellable: boolean;
  notCancellableReason: string | null;
  refundAmount: Minor;
  cancellationFee: Minor;
  /** What the fee's percent applies to: the premium part of the share (0 when no money would move). */
  feeBase: Minor;
  /**
   * Why the refund is the operator's to make rather than the provider API's: part of the payment
   * already went back at the provider and nobody can say how much, so sending the share could
   * give back more than was paid. Null when the service may send it.
   */
  refundByOperator: string | null;
}

/**
 * What cancelling now does, for every canceller (the one rule set of decision record
 * 0062): the operator with a note may cancel a paid order whose cover has started (it
 * still gets the fee rule of its payment date); partners may not; the operator without a note
 * cancels only an unpaid order.
 */
export function cancellationTerms(
  facts: CancellationFacts,
  now: Date,
  settings: CancellationSettings,
  who: Canceller = 'PARTNER',
): CancellationTerms {
  const none = { refundAmount: 0, cancellationFee: 0, feeBase: 0, refundByOperator: null };
  if (facts.status === 'CANCELLED') {
    const when = facts.cancelledAt ? ` on ${facts.cancelledAt.toISOString()}` : '';
    return {
      rule: 'ALREADY_CANCELLED',
      cancellable: false,
      notCancellableReason: `Order ${facts.orderRef} was already cancelled${when}`,
      ...none,
    };
  }
  if (facts.status === 'PENDING' && !facts.paidAt)
    return { rule: 'UNPAID', cancellable: true, notCancellableReason: null, ...none };
  if (who === 'OPERATOR') {
    // What a note would allow, refused: a paid order's cancellation gives money back, which the operator explains.
    const withNote = cancellationTerms(facts, now, settings, 'OPERATOR_WITH_NOTE');
    const reason = `order ${facts.orderRef} is ${facts.status}; only a PENDING order can be cancelled without --note (a paid order is cancelled with a refund: give --note)`;
    return { ...withNote, cancellable: false, notCancellableReason: reason, ...none };
  }
  const asOperator = who === 'OPERATOR_WITH_NOTE';
  const today = businessToday(now);
  const started = facts.coverageStartDate <= today || facts.status === 'COMPLETED' || facts.status === 'CLOSED';
  if (started && !asOperator) {
    return {
      rule: 'COVER_STARTED',
      cancellable: false,
      notCancellableReason:
        facts.status === 'PENDING' || facts.status === 'PAID'
          ? `The cover of order ${facts.orderRef} started on ${facts.coverageStartDate}; it can no longer be cancelled through the API: ask the operator, who can cancel it with a note`
          : `Order ${facts.orderRef} is ${facts.status}; its cover has run, it can no longer be cancelled through the API: ask the operator`,
      ...none,
    };
  }
  const paidOn = kathmanduToday(facts.paidAt ?? now);
  // What earlier refunds of the share (a partial reversal at the provider) did not give back: the most this one may.
  const left = Math.max(0, facts.paidShare - (facts.refundedBefore ?? 0));
  const refundByOperator = facts.paymentPartlyReversed
    ? 'the provider reports part of this payment already given back: check its portal, refund what is left by hand (at most this amount), then ops refund confirm --amount <what you gave back>'
    : null;
  if (today <= addDays(paidOn, settings.freeLookDays)) {
    return {
      rule: 'FREE_LOOK',
      cancellable: true,
      notCancellableReason: null,
      refundAmount: left,
      cancellationFee: 0,
      feeBase: facts.premiumShare,
      refundByOperator,
    };
  }
  // The fee is a share of the premium only (decision 0103), kept from what is left (never more than is left).
  const fee = Math.min(left, cancellationFee(facts.premiumShare, settings.cancellationFeePercent));
  return {
    rule: 'CANCELLATION_FEE',
    cancellable: true,
    notCancellableReason: null,
    refundAmount: left - fee,
    cancellationFee: fee,
    feeBase: facts.premiumShare,
    refundByOperator,
  };
}

/** `percent` of the share, rounded down to the paisa (in the traveller's favour). */
export function cancellationFee(share: Minor, percent: number): Minor {
  const basisPoints = Math.round(percent * 100);
  return Math.floor((share * basisPoints) / 10000);
}

/** The fingerprint a cancellation's Idempotency-Key is bound to: the order and the body. */
export function cancellationFingerprint(orderId: string, body: { reason: string; note?: string | null }): string {
  return createHash('sha256')
    .update(JSON.stringify({ orderId, reason: body.reason, note: body.note ?? null }))
    .digest('hex');
}

/** What one payment's share gives back in a cancellation, and what of the fee it keeps. */
export interface ShareRefund {
  amount: Minor;
  fee: Minor;
}

/**
 * Splits a cancellation's terms over the order's payments (its own, then each extension's
 * top-up: decision record 0099): each gives back what is left of it, and the fee, a share of
 * the whole, is kept from the first payments on (the order's own), never more than one has left.
 * `left` is each share less its refunds not FAILED; the amounts add up to `refundAmount`.
 */
export function splitCancellationRefund(left: readonly Minor[], cancellationFee: Minor): ShareRefund[] {
  let feeToKeep = cancellationFee;
  return left.map((room) => {
    const available = Math.max(0, room);
    const fee = Math.min(available, feeToKeep);
    feeToKeep -= fee;
    return { amount: available - fee, fee };
  });
}
