import type { EntityManager } from '@mikro-orm/postgresql';
import { isExpired, needsReconciliation, type AttemptStatus } from '../domain/payment-attempt';
import type { Minor } from '../domain/money';
import { Order, OrderStatus } from '../entities/order';
import { PaymentAttempt, type PaymentMethod } from '../entities/payment-attempt';
import type { Principal } from './authentication';
import { resolveOrder } from './order-lookup';
import type { PaymentDeps } from './payment-deps';
import { reconcileAttempt } from './payment-reconciliation';

export interface PaymentStatusView {
  orderRef: string;
  orderStatus: OrderStatus;
  paymentStatus: AttemptStatus | 'NOT_INITIATED';
  attempt?: {
    paymentRef: string;
    gateway: PaymentMethod;
    amount: Minor;
    currency: string;
    completedAt?: Date;
  };
}

/**
 * GET /orders/{orderRef}/payment-status. The attempt reported is the one that paid the order
 * when it is PAID, otherwise the most recent. An attempt still INITIATED after
 * PAYMENT_RECONCILE_AFTER_SECONDS (or past its expiry) is first checked with its gateway, so a
 * customer who paid and never came back still shows up as paid.
 */
export async function getPaymentStatus(em: EntityManager, principal: Principal, identifier: string, deps: PaymentDeps, now = new Date()): Promise<PaymentStatusView> {
  const { order } = await resolveOrder(em, principal, identifier, { populate: [] });
  let attempt = await reportedAttempt(em, order);
  if (attempt && (needsReconciliation({ ...attempt, gatewayConfirmed: !!attempt.gatewayConfirmedAt }, now, deps.payments.reconcileAfterSeconds, 0) || isExpired(attempt, now))) {
    await reconcileAttempt(em, attempt.id, deps, now);
    const fresh = em.fork();
    const reloaded = await fresh.findOneOrFail(Order, order.id);
    attempt = await reportedAttempt(fresh, reloaded);
    return view(reloaded, attempt);
  }
  return view(order, attempt);
}

async function reportedAttempt(em: EntityManager, order: Order): Promise<PaymentAttempt | null> {
  if (order.status === OrderStatus.Paid) {
    const paying = await em.find(PaymentAttempt, { status: 'SUCCESS', orders: { order: order.id } }, { orderBy: { completedAt: 'asc' } });
    // The first capture paid the order; a later one (owed back) is not the order's payment.
    const settled = paying.find((attempt) => attempt.refundAmount < attempt.amount);
    if (settled) return settled;
  }
  return em.findOne(PaymentAttempt, { orders: { order: order.id } }, { orderBy: { createdAt: 'desc' } });
}

function view(order: Order, attempt: PaymentAttempt | null): PaymentStatusView {
  if (!attempt) return { orderRef: order.orderRef, orderStatus: order.status, paymentStatus: 'NOT_INITIATED' };
  return {
    orderRef: order.orderRef,
    orderStatus: order.status,
    paymentStatus: attempt.status,
    attempt: {
      paymentRef: attempt.paymentRef,
      gateway: attempt.gateway,
      amount: attempt.amount,
      currency: attempt.currency,
      completedAt: attempt.completedAt,
    },
  };
}
