import type { EntityManager } from '@mikro-orm/postgresql';
import { shareStatus, type AttemptStatus, type ShareSettlement } from './rules/payment-attempt';
import type { Minor } from '../../kernel/money';
import { isPaidOrderStatus, Order, OrderStatus } from '../orders/entities/order';
import { PaymentAttempt, type PaymentMethod } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
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

/** An order's share of one payment attempt, as far as the payment status reads it. */
export interface OrderShare {
  attemptId: string;
  attemptStatus: AttemptStatus;
  attemptCreatedAt: Date;
  settlement: ShareSettlement | null | undefined;
}

/**
 * The share an order's payment status reports: on a paid order the share that paid it (the
 * first: an extension's top-up settles PAID after it, decision record 0099); on a cancelled
 * order that was paid, the share its cancellation's (or the provider's reversal's) refund gives
 * back, `refundedAttemptId`; otherwise the most recent. Pure: the reader loads the shares.
 */
export function reportedShare<S extends OrderShare>(
  orderStatus: string,
  shares: readonly S[],
  refundedAttemptId?: string,
): S | undefined {
  const oldestFirst = [...shares].sort((a, b) => a.attemptCreatedAt.getTime() - b.attemptCreatedAt.getTime());
  const paying = isPaidOrderStatus(orderStatus) ? oldestFirst.find((share) => share.settlement === 'PAID') : undefined;
  const refunded =
    orderStatus === 'CANCELLED' ? shares.find((share) => share.attemptId === refundedAttemptId) : undefined;
  return paying ?? refunded ?? oldestFirst.at(-1);
}

/**
 * The payment status of an order with these shares, before a refund's own status is read
 * (REFUND_FAILED). The SQL function `order_payment_status` keeps the same value in the order's
 * `payment_status` column for the order book (docs/database-behaviour.md):
 * test/payments/payment-status-cases.test.ts holds both to one table of cases.
 */
export function orderPaymentStatus(
  orderStatus: string,
  shares: readonly OrderShare[],
  refundedAttemptId?: string,
): AttemptStatus | 'NOT_INITIATED' {
  const share = reportedShare(orderStatus, shares, refundedAttemptId);
  return share ? shareStatus(share.attemptStatus, share.settlement) : 'NOT_INITIATED';
}

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
  const share = await reportedShareOf(em, order);
  const attempt = share?.attempt;
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
      return withTopUps(em, order, await withRefund(em, view(order, share)));
    }
    const fresh = em.fork();
    const reloaded = await fresh.findOneOrFail(Order, order.id);
    return withTopUps(fresh, reloaded, await withRefund(fresh, view(reloaded, await reportedShareOf(fresh, reloaded))));
  }
  return withTopUps(em, order, await withRefund(em, view(order, share)));
}

/** The order's extension top-ups beside the payment reported (decision record 0099); none: no `topUps`. */
async function withTopUps(em: EntityManager, order: Order, status: PaymentStatusView): Promise<PaymentStatusView> {
  const amendments = await em.find(
    OrderAmendment,
    { order: order.id, paymentRef: { $ne: null } },
    { orderBy: { createdAt: 'asc' } },
  );
  if (amendments.length === 0) return status;
  // The top-ups' attempts in one read, not one per amendment.
  const attempts = await em.find(
    PaymentAttempt,
    { paymentRef: { $in: amendments.map((amendment) => amendment.paymentRef!) } },
    { populate: ['orders'] },
  );
  const byRef = new Map(attempts.map((attempt) => [attempt.paymentRef, attempt]));
  const topUps: TopUpStatus[] = [];
  for (const amendment of amendments) {
    const attempt = byRef.get(amendment.paymentRef!);
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

/** The order's share that reportedShare picks, with its attempt and the attempt's group. */
async function reportedShareOf(em: EntityManager, order: Order): Promise<PaymentAttemptOrder | null> {
  const lines = await em.find(PaymentAttemptOrder, { order: order.id }, { populate: ['attempt', 'attempt.group'] });
  // A paid order cancelled since (or whose payment the provider reversed): the share being (or that was) refunded.
  const refund =
    order.status === OrderStatus.Cancelled && order.paidAt
      ? await em.findOne(
          Refund,
          { order: order.id, cause: { $in: ['CANCELLATION', 'PROVIDER_REVERSAL'] } },
          // The order's own payment's, not an extension top-up's (decision record 0099).
          { fields: ['attempt'], orderBy: { createdAt: 'asc', attempt: { createdAt: 'asc' } } },
        )
      : null;
  const shares = lines.map((line) => ({
    line,
    attemptId: line.attempt.id,
    attemptStatus: line.attempt.status,
    attemptCreatedAt: line.attempt.createdAt,
    settlement: line.settlement,
  }));
  return reportedShare(order.status, shares, refund?.attempt.id)?.line ?? null;
}

function view(order: Order, share: PaymentAttemptOrder | null): PaymentStatusView {
  if (!share)
    return {
      orderRef: order.orderRef,
      orderStatus: order.status,
      paymentStatus: 'NOT_INITIATED',
      policyNumber: order.policyNumber,
    };
  const attempt = share.attempt;
  return {
    orderRef: order.orderRef,
    orderStatus: order.status,
    paymentStatus: shareStatus(attempt.status, share.settlement),
    policyNumber: order.policyNumber,
    attempt: {
      paymentRef: attempt.paymentRef,
      gateway: attempt.gateway,
      amount: share.amount,
      currency: attempt.currency,
      completedAt: attempt.completedAt,
      group: attempt.group ? { groupRef: attempt.group.groupRef, amount: attempt.amount } : undefined,
    },
  };
}
