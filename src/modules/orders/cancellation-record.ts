import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { refundEventFacts } from '../refunds';
import type { Refund } from '../refunds/entities/refund';
import { recordOrderCancelledEvent } from '../webhooks';
import { recordAudit } from './audit-log';
import { OrderStatus, type Order } from './entities/order';
import { OrderCancellation } from './entities/order-cancellation';
import type { CancellationReason, CancellationRule } from './rules/cancellation';

/** Who cancels, why, and (for a partner) the request's Idempotency-Key and fingerprint. */
export interface CancellationRecord {
  reason: CancellationReason;
  note: string | null;
  actor: string;
  company?: string;
  idempotencyKey?: string;
  fingerprint?: string;
}

/** What a cancellation did besides cancelling, as its audit entry and event tell it. */
export interface CancellationOutcome {
  rule: CancellationRule | 'PAYMENT_REVERSED';
  refundAmount: Minor;
  cancellationFee: Minor;
  refund: Refund | null;
  /** The refunds of the order's extension top-ups, beside its own payment's (decision record 0099). */
  topUpRefunds?: Refund[];
  /** The payment whose share goes back, if the order was paid. */
  paymentRef?: string | null;
  /** The order's total before its promo codes were given back (an unpaid order's). */
  totalBefore?: Minor;
  releasedCodes?: string[];
  closedPaymentRefs?: string[];
}

/**
 * The one writer of Order -> CANCELLED, for every cause (a partner, the operator, the provider's
 * reversal), in the caller's transaction with the order locked: the status, the cancellation row
 * (the one source of `cancelledAt`), one audit entry shape and one `order.cancelled` event.
 */
export async function recordCancellation(
  tx: EntityManager,
  order: Order,
  record: CancellationRecord,
  outcome: CancellationOutcome,
  now: Date,
): Promise<{ cancellation: OrderCancellation; closedPaymentRefs: string[] }> {
  const previousStatus = order.status;
  order.status = OrderStatus.Cancelled;
  const cancellation = tx.create(OrderCancellation, {
    order,
    reason: record.reason,
    note: record.note,
    cancelledAt: now,
    actor: record.actor,
    company: record.company ?? null,
    idempotencyKey: record.idempotencyKey ?? null,
    requestFingerprint: record.fingerprint ?? null,
  });
  // Every checkout closed for this change was one of this order's (found by its lines).
  const closedPaymentRefs = [...(outcome.closedPaymentRefs ?? [])].sort();
  recordAudit(tx, {
    actor: record.actor,
    action: 'ORDER_CANCELLED',
    order,
    at: now,
    details: {
      previousStatus,
      reason: record.reason,
      ...(record.note ? { note: record.note } : {}),
      rule: outcome.rule,
      paymentRef: outcome.paymentRef ?? null,
      refundRef: outcome.refund?.refundRef ?? null,
      // An extended order's: its top-ups' refunds too (decision record 0099).
      ...(outcome.topUpRefunds?.length
        ? { topUpRefundRefs: outcome.topUpRefunds.map((refund) => refund.refundRef) }
        : {}),
      refundAmount: decimalStringFromMinor(outcome.refundAmount),
      cancellationFee: decimalStringFromMinor(outcome.cancellationFee),
      currency: order.currency,
      totalBefore: decimalStringFromMinor(outcome.totalBefore ?? order.totalAmount),
      totalAfter: decimalStringFromMinor(order.totalAmount),
      releasedPromoCodes: outcome.releasedCodes ?? [],
      closedPaymentRefs,
    },
  });
  await recordOrderCancelledEvent(tx, order, now, {
    reason: record.reason === 'OPERATOR' ? 'CANCELLED_BY_OPERATOR' : record.reason,
    refund: outcome.refund ? refundEventFacts(outcome.refund) : null,
  });
  return { cancellation, closedPaymentRefs };
}
