import type { EntityManager } from '@mikro-orm/postgresql';
import type { Minor } from '../../kernel/money';
import { premiumOfShare } from '../../kernel/premium';
import type { Principal } from '../../kernel/http/request-scope';
import type { PaymentAttempt } from '../payments/entities/payment-attempt';
import { PaymentAttemptOrder } from '../payments/entities/payment-attempt-order';
import { Refund } from '../refunds/entities/refund';
import { refundsHolding } from '../refunds';
import { OrderStatus, type Order } from './entities/order';
import { OrderCancellation } from './entities/order-cancellation';
import { resolveOrder } from './order-lookup';
import {
  cancellationTerms,
  type CancellationSettings,
  type CancellationTerms,
  type Canceller,
} from './rules/cancellation';

/** The terms a preview shows, with the order's reference and currency. */
export interface CancellationPreview extends CancellationTerms {
  orderRef: string;
  currency: string;
}

/** POST /orders/{orderRef}/cancellation/preview: the terms now, nothing changed, no gateway asked. */
export async function previewCancellation(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  settings: CancellationSettings,
  now = new Date(),
): Promise<CancellationPreview> {
  const { order } = await resolveOrder(em, principal, identifier, {
    intent: 'ACT',
    strangerSeesNothing: true,
    populate: [],
  });
  const terms = await termsOf(em, order, settings, now, 'PARTNER');
  return { ...terms, orderRef: order.orderRef, currency: order.currency };
}

/** The one rule set (rules/cancellation.ts) applied to the order as it is now. */
export async function termsOf(
  em: EntityManager,
  order: Order,
  settings: CancellationSettings,
  now: Date,
  who: Canceller,
  cancelledAt?: Date,
): Promise<CancellationTerms> {
  const paid = order.paidAt && order.status !== OrderStatus.Cancelled ? await paidShares(em, order.id) : [];
  let when = cancelledAt;
  if (order.status === OrderStatus.Cancelled && !when)
    when = (await em.findOne(OrderCancellation, { order: order.id }))?.cancelledAt;
  // Every payment of the order counts as one: its own and each extension's top-up (decision record 0099).
  let refundedBefore = 0;
  for (const share of paid) refundedBefore += share.refundedBefore;
  return cancellationTerms(
    {
      orderRef: order.orderRef,
      status: order.status,
      coverageStartDate: order.coverageStartDate,
      paidAt: order.paidAt,
      paidShare: paid.reduce((sum, share) => sum + share.amount, 0),
      premiumShare: premiumOfShares(order, paid),
      refundedBefore,
      paymentPartlyReversed: paid.some((share) => share.attempt.providerReversal === 'PARTIAL'),
      cancelledAt: when,
    },
    now,
    settings,
    who,
  );
}

/**
 * The insurance premium in what the order's payments paid (decision record 0103's fee base): the
 * premium part of the order's own payment, and every top-up whole, an extension buying cover only
 * (decision record 0099).
 */
function premiumOfShares(order: Order, paid: readonly PaidShare[]): Minor {
  const [own, ...topUps] = paid;
  return (own ? premiumOfShare(order, own.amount) : 0) + topUps.reduce((sum, share) => sum + share.amount, 0);
}

/** One payment's share of the order, with what its refunds not FAILED already hold of it. */
export interface PaidShare {
  attempt: PaymentAttempt;
  amount: Minor;
  refundedBefore: Minor;
}

/**
 * The shares of the payments that paid the order, the order's own first, then each extension's
 * top-up in the order they were made (decision record 0099).
 */
export async function paidShares(em: EntityManager, orderId: string): Promise<PaidShare[]> {
  const lines = await em.find(
    PaymentAttemptOrder,
    { order: orderId, settlement: 'PAID' },
    { populate: ['attempt'], orderBy: { attempt: { createdAt: 'asc' } } },
  );
  const shares: PaidShare[] = [];
  for (const line of lines)
    shares.push({
      attempt: line.attempt,
      amount: line.amount,
      refundedBefore: await refundsHolding(em, { attemptId: line.attempt.id, orderId }),
    });
  return shares;
}

/** The refund a cancellation made for the order's own payment (or the reversal at the provider that cancelled it), if any. */
export async function cancellationRefund(em: EntityManager, orderId: string): Promise<Refund | null> {
  return (await cancellationRefunds(em, orderId))[0] ?? null;
}

/** Every refund a cancellation made for the order: its own payment's first, then its top-ups' (decision record 0099). */
export function cancellationRefunds(em: EntityManager, orderId: string): Promise<Refund[]> {
  return em.find(
    Refund,
    { order: orderId, cause: { $in: ['CANCELLATION', 'PROVIDER_REVERSAL'] } },
    { populate: ['attempt'], orderBy: { createdAt: 'asc', attempt: { createdAt: 'asc' } } },
  );
}

/** The cancellation of an order and its refund, for the order detail; null for an order not cancelled. */
export async function cancellationOf(
  em: EntityManager,
  order: Order,
): Promise<{ cancellation: OrderCancellation; refund: Refund | null; topUpRefunds: Refund[] } | null> {
  if (order.status !== OrderStatus.Cancelled) return null;
  const cancellation = await em.findOne(OrderCancellation, { order: order.id });
  if (!cancellation) return null;
  const [refund = null, ...topUpRefunds] = await cancellationRefunds(em, order.id);
  return { cancellation, refund, topUpRefunds };
}
