import type { EntityManager } from '@mikro-orm/postgresql';
import { shareStatus, type AttemptStatus } from './rules/payment-attempt';
import type { Minor } from '../../kernel/money';
import { Order, OrderStatus } from '../orders/entities/order';
import { PaymentAttempt, type PaymentMethod } from './entities/payment-attempt';
import type { PaymentAttemptOrder } from './entities/payment-attempt-order';
import type { Principal } from '../../kernel/http/request-scope';
import { resolveOrder } from '../orders';
import type { PaymentDeps } from './payment-deps';
import { reconcileAttempt } from './reconciliation';
import { ProviderUnavailableError } from './providers/gateway';
import { Refund } from '../refunds/entities/refund';
import { OrderAmendment } from '../orders/entities/order-amendment';

export interface PaymentStatusView {
  orderRef: string;
  orderStatus: OrderStatus;
  /** REFUND_FAILED: the share is owed back and its refund FAILED (the operator takes it from there). */
  paymentStatus: AttemptStatus | 'NOT_INITIATED' | 'REFUND_FAILED';
  /** Issued with the payment that paid the order; absent before. */
  policyNumber?: string;
  /** The refund of this order's share of the reported attempt, if one was recorded. */
  refund?: Refund;
  attempt?: {
    paymentRef: string;
    gateway: PaymentMethod;
    /** This order's share of the attempt. */
    amount: Minor;
    currency: string;
    completedAt?: Date;
    /** For a group payment: the group and the attempt's whole amount. */
    group?: { groupRef: string; amount: Minor };
  };
  /** The order's extension top-ups, oldest first (decision record 0099). */
  topUps?: TopUpStatus[];
}

/** One extension top-up as payment-status shows it. */
export interface TopUpStatus {
  paymentRef: string;
  amendmentRef: string;
  paymentStatus: AttemptStatus | 'REFUND_FAILED';
  gateway: PaymentMethod;
  amount: Minor;
  currency: string;
}

const PAID_STATES: readonly OrderStatus[] = [OrderStatus.Paid, OrderStatus.Completed, OrderStatus.Closed];

/**
 * GET /orders/{orderRef}/payment-status. The attempt reported is the one whose share paid the
 * order when it is paid, otherwise the most recent. Its status is this order's share's
 * (shareStatus), so SUCCESS is read only beside a paid order, and a capture that could not pay
 * the order reads REFUND_PENDING (REFUND_FAILED once its refund failed). An attempt still
 * INITIATED is first checked with its gateway on every call, through `deps.statusLookups` (one
 * provider call per attempt in PAYMENT_STATUS_LOOKUP_SECONDS), so a customer who paid and never came back
 * shows up as paid within seconds (decision record 0096); past its expiry it is closed.
 */
export async function getPaymentStatus(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  deps: PaymentDeps,
  now = new Date(),
): Promise<PaymentStatusView> {
  const { order } = await resolveOrder(em, principal, identifier, { intent: 'READ', populate: [] });
  let attempt = await reportedAttempt(em, order);
  if (attempt && attempt.status === 'INITIATED' && !attempt.gatewayConfirmedAt) {
    try {
      await reconcileAttempt(em, attempt.id, deps, now, deps.statusLookups);
    } catch (error) {
      // The stored state is still true, only not fresh: answer it rather than fail the partner's read.
      if (!(error instanceof ProviderUnavailableError)) throw error;
      deps.logger.warn(
        { paymentRef: attempt.paymentRef, provider: error.provider, kind: error.kind },
        'payment status answered without reconciling: provider unavailable',
      );
      return withTopUps(em, order, await withRefund(em, view(order, attempt)));
    }
    const fresh = em.fork();
    const reloaded = await fresh.findOneOrFail(Order, order.id);
    attempt = await reportedAttempt(fresh, reloaded);
    return withTopUps(fresh, reloaded, await withRefund(fresh, view(reloaded, attempt)));
  }
  return withTopUps(em, order, await withRefund(em, view(order, attempt)));
}

/** The order's extension top-ups beside the payment reported (decision record 0099); none: no `topUps`. */
async function withTopUps(em: EntityManager, order: Order, status: PaymentStatusView): Promise<PaymentStatusView> {
  const amendments = await em.find(
    OrderAmendment,
    { order: order.id, paymentRef: { $ne: null } },
    { orderBy: { createdAt: 'asc' } },
  );
  if (amendments.length === 0) return status;
  const topUps: TopUpStatus[] = [];
  for (const amendment of amendments) {
    const attempt = await em.findOne(PaymentAttempt, { paymentRef: amendment.paymentRef! }, { populate: ['orders'] });
    if (!attempt) continue;
    const share = attempt.orders.getItems().find((line) => line.order.id === order.id);
    const refund =
      share?.settlement === 'REFUND_PENDING'
        ? await em.findOne(Refund, { attempt: attempt.id, order: order.id }, { orderBy: { createdAt: 'desc' } })
        : null;
    topUps.push({
      paymentRef: attempt.paymentRef,
      amendmentRef: amendment.amendmentRef,
      paymentStatus: refund?.status === 'FAILED' ? 'REFUND_FAILED' : shareStatus(attempt.status, share?.settlement),
      gateway: attempt.gateway,
      amount: share?.amount ?? attempt.amount,
      currency: attempt.currency,
    });
  }
  return { ...status, topUps };
}

async function withRefund(em: EntityManager, status: PaymentStatusView): Promise<PaymentStatusView> {
  if (!status.attempt || (status.paymentStatus !== 'REFUND_PENDING' && status.paymentStatus !== 'REFUNDED'))
    return status;
  const refund = await em.findOne(
    Refund,
    { attempt: { paymentRef: status.attempt.paymentRef }, order: { orderRef: status.orderRef } },
    { orderBy: { createdAt: 'desc' } },
  );
  if (!refund) return status;
  // A refund that failed is not on its way: it waits for the operator, and reads so.
  return { ...status, refund, ...(refund.status === 'FAILED' ? { paymentStatus: 'REFUND_FAILED' as const } : {}) };
}

async function reportedAttempt(em: EntityManager, order: Order): Promise<PaymentAttempt | null> {
  const populate = ['orders', 'group'] as const;
  if (PAID_STATES.includes(order.status)) {
    // The payment that paid the order, not a later top-up of an extension (decision record 0099).
    const paying = await em.findOne(
      PaymentAttempt,
      { orders: { order: order.id, settlement: 'PAID' } },
      { populate, orderBy: { createdAt: 'asc' } },
    );
    if (paying) return paying;
  }
  if (order.status === OrderStatus.Cancelled && order.paidAt) {
    // A paid order cancelled since (or whose payment the provider reversed): the payment that paid it, whose share is now being (or was) refunded.
    const refund = await em.findOne(
      Refund,
      { order: order.id, cause: { $in: ['CANCELLATION', 'PROVIDER_REVERSAL'] } },
      // The order's own payment's, not an extension top-up's (decision record 0099).
      { fields: ['attempt'], orderBy: { attempt: { createdAt: 'asc' } } },
    );
    if (refund) return em.findOne(PaymentAttempt, refund.attempt.id, { populate });
  }
  return em.findOne(PaymentAttempt, { orders: { order: order.id } }, { orderBy: { createdAt: 'desc' }, populate });
}

function view(order: Order, attempt: PaymentAttempt | null): PaymentStatusView {
  if (!attempt)
    return {
      orderRef: order.orderRef,
      orderStatus: order.status,
      paymentStatus: 'NOT_INITIATED',
      policyNumber: order.policyNumber,
    };
  const share: PaymentAttemptOrder | undefined = attempt.orders.getItems().find((line) => line.order.id === order.id);
  return {
    orderRef: order.orderRef,
    orderStatus: order.status,
    paymentStatus: shareStatus(attempt.status, share?.settlement),
    policyNumber: order.policyNumber,
    attempt: {
      paymentRef: attempt.paymentRef,
      gateway: attempt.gateway,
      amount: share?.amount ?? attempt.amount,
      currency: attempt.currency,
      completedAt: attempt.completedAt,
      group: attempt.group ? { groupRef: attempt.group.groupRef, amount: attempt.amount } : undefined,
    },
  };
}
