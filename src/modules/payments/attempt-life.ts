import type { EntityManager } from '@mikro-orm/postgresql';
import { endedPaymentEventType, recordPaymentEvents } from '../webhooks';
import type { PaymentAttempt } from './entities/payment-attempt';
import type { PaymentAttemptOrder } from './entities/payment-attempt-order';
import { attemptStep, shareStep, type AttemptStep, type ClosedReason, type ShareStep } from './rules/payment-attempt';

/**
 * The one writer of a payment attempt's status and of its shares' settlement (decision record
 * 0111), applying rules/payment-attempt.ts's machines, whoever asks: the settlement of a gateway's
 * word, our closing of a checkout, the provider's reversal, and refunds through payments'
 * `refundWrites` port. test/kernel/table-owners.test.ts fails when another file writes either.
 * An attempt is born INITIATED (payment-start.ts) or SUCCESS with a PAID share (cash-settlement.ts).
 */

/** What a step needs besides the attempt. */
export interface AttemptMove {
  step: AttemptStep;
  at: Date;
  /** DECLINE, CANCEL, EXPIRE by the gateway's word: what it said. */
  failureReason?: string;
  /** CANCEL, EXPIRE by us, without the gateway's word: why we closed it. */
  closedReason?: ClosedReason;
  /** CAPTURE, CAPTURE_OWED, REVERSE: what of the money no order keeps, and why. */
  refundAmount?: number;
  refundReason?: string;
}

/** A step refused by the machine: a caller that did not check the status first is wrong. */
export class AttemptStepRefused extends Error {}

/**
 * Applies one step to an attempt the caller locked (settlement.ts's lockAttemptForSettlement, or
 * the lock of the transaction closing it): its status and the fields that go with it, and for an
 * attempt ended without a capture its `payment.failed` / `payment.cancelled` / `payment.expired`.
 * A capture's events name the orders its shares paid or owe, after their policy numbers: the
 * settlement records them once the shares moved.
 */
export async function moveAttempt(tx: EntityManager, attempt: PaymentAttempt, move: AttemptMove): Promise<void> {
  const next = attemptStep(attempt.status, move.step);
  if ('refused' in next) throw new AttemptStepRefused(`${attempt.paymentRef}: ${next.refused}`);
  attempt.status = next.to;
  if (move.refundAmount !== undefined) attempt.refundAmount = move.refundAmount;
  if (move.refundReason !== undefined) attempt.refundReason = move.refundReason;
  switch (next.to) {
    case 'SUCCESS':
    case 'REFUND_PENDING':
      attempt.completedAt = move.at;
      // The watch of an undecided payment ends here; a paid one is watched for reversals from its first step.
      attempt.checkCount = 0;
      attempt.nextCheckAt = null;
      return;
    case 'REFUNDED':
      attempt.refundedAt ??= move.at;
      return;
    case 'FAILED':
    case 'CANCELLED':
    case 'EXPIRED': {
      attempt.completedAt = move.at;
      if (move.closedReason) attempt.closedReason = move.closedReason;
      else attempt.failureReason = move.failureReason;
      await recordPaymentEvents(tx, endedPaymentEventType(next.to), attempt, {
        at: move.at,
        reason: move.closedReason ?? move.failureReason ?? null,
      });
      return;
    }
    default:
      throw new AttemptStepRefused(`${attempt.paymentRef}: no step leads to ${next.to}`);
  }
}

/** A step refused by the share's machine. */
export class ShareStepRefused extends Error {}

/** Applies one step to a share of an attempt whose lock (or its order's) the caller holds. */
export function moveShare(share: PaymentAttemptOrder, step: ShareStep): void {
  const next = shareStep(share.settlement ?? null, step);
  if ('refused' in next) throw new ShareStepRefused(`share of ${share.order.id}: ${next.refused}`);
  share.settlement = next.to;
}
