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
  const paid = order.paidAt && order.status !== OrderStatus.Cancelled ? await paidShare(em, order.id) : null;
  let when = cancelledAt;
  if (order.status === OrderStatus.Cancelled && !when)
    when = (await em.findOne(OrderCancellation, { order: order.id }))?.cancelledAt;
  return cancellationTerms(
    {
      orderRef: order.orderRef,
      status: order.status,
      coverageStartDate: order.coverageStartDate,
      paidAt: order.paidAt,
      paidShare: paid?.amount ?? 0,
      premiumShare: paid ? premiumOfShare(order, paid.amount) : 0,
      refundedBefore: paid ? await refundsHolding(em, { attemptId: paid.attempt.id, orderId: order.id }) : 0,
      paymentPartlyReversed: paid?.attempt.providerReversal === 'PARTIAL',
      cancelledAt: when,
    },
    now,
    settings,
    who,
  );
}

/** The share of the payment that paid the order, with its attempt. */
export async function paidShare(
  em: EntityManager,
  orderId: string,
): Promise<{ attempt: PaymentAttempt; amount: Minor } | null> {
  // The first: an extension's top-up (decision record 0099) also settles PAID on the order, after the payment that paid it.
  const line = await em.findOne(
    PaymentAttemptOrder,
    { order: orderId, settlement: 'PAID' },
    { populate: ['attempt'], orderBy: { attempt: { createdAt: 'asc' } } },
  );
  return line ? { attempt: line.attempt, amount: line.amount } : null;
}

/** The refund a cancellation made for the order (or the reversal at the provider that cancelled it), if any. */
export function cancellationRefund(em: EntityManager, orderId: string): Promise<Refund | null> {
  return em.findOne(
    Refund,
    { order: orderId, cause: { $in: ['CANCELLATION', 'PROVIDER_REVERSAL'] } },
    { populate: ['attempt'], orderBy: { createdAt: 'asc' } },
  );
}

/** The cancellation of an order and its refund, for the order detail; null for an order not cancelled. */
export async function cancellationOf(
  em: EntityManager,
  order: Order,
): Promise<{ cancellation: OrderCancellation; refund: Refund | null } | null> {
  if (order.status !== OrderStatus.Cancelled) return null;
  const cancellation = await em.findOne(OrderCancellation, { order: order.id });
  if (!cancellation) return null;
  return { cancellation, refund: await cancellationRefund(em, order.id) };
}
