import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { effectOfGatewayWord, settlementPlan, type ClosedReason, type GatewayWordEffect } from '../domain/payment-attempt';
import { Order, OrderStatus } from '../entities/order';
import { PaymentAttempt } from '../entities/payment-attempt';
import { PaymentAttemptOrder } from '../entities/payment-attempt-order';
import type { GatewayReport } from '../gateways/gateway';

/**
 * Locks, in this order, every order the attempt pays for (by id) and then the attempt itself,
 * and returns the attempt freshly read. Pay, callback and reconciliation all take order rows
 * before attempt rows, so they queue behind each other instead of deadlocking.
 */
export async function lockAttemptForSettlement(tx: EntityManager, attemptId: string): Promise<PaymentAttempt> {
  const lines = await tx.find(PaymentAttemptOrder, { attempt: attemptId }, { fields: ['order'] });
  const orderIds = lines.map((line) => line.order.id).sort();
  if (orderIds.length > 0) {
    await tx.find(Order, { id: { $in: orderIds } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true });
  }
  const attempt = await tx.findOneOrFail(PaymentAttempt, attemptId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  await tx.populate(attempt, ['orders.order'], { refresh: true });
  return attempt;
}

export interface RecordedWord {
  effect: GatewayWordEffect;
  paidOrderRefs: string[];
  refundAmount: number;
}

/**
 * Records a gateway's final word about an attempt that `lockAttemptForSettlement` locked: the
 * attempt's status, and for a capture the orders it pays (PAID) or the refund it is owed. A word
 * after the gateway's first one (a replay) changes nothing.
 */
export async function recordGatewayWord(tx: EntityManager, attempt: PaymentAttempt, report: GatewayReport, now: Date): Promise<RecordedWord> {
  const effect = effectOfGatewayWord({ status: attempt.status, gatewayConfirmed: !!attempt.gatewayConfirmedAt }, report.status);
  if (effect.kind === 'REPLAY') return { effect, paidOrderRefs: [], refundAmount: 0 };

  attempt.gatewayConfirmedAt = now;
  attempt.gatewayTransactionId = report.gatewayTransactionId;
  attempt.lastCheckedAt = now;
  if (effect.kind === 'CONFIRM_CLOSED') {
    attempt.failureReason ??= report.reason;
    return { effect, paidOrderRefs: [], refundAmount: 0 };
  }
  if (effect.kind === 'COMPLETE' && effect.status !== 'SUCCESS') {
    attempt.status = effect.status;
    attempt.completedAt = now;
    attempt.failureReason = report.reason;
    return { effect, paidOrderRefs: [], refundAmount: 0 };
  }

  // The gateway captured the money (on time, or late for an attempt we had closed).
  attempt.status = 'SUCCESS';
  attempt.completedAt = now;
  const lines = attempt.orders.getItems();
  const plan = settlementPlan(
    lines.map((line) => ({ orderId: line.order.id, orderStatus: line.order.status, orderTotal: line.order.totalAmount, charged: line.amount })),
  );
  const paid = lines.filter((line) => plan.pay.includes(line.order.id)).map((line) => line.order);
  for (const order of paid) {
    order.status = OrderStatus.Paid;
    order.paidAt = now;
  }
  attempt.refundAmount = plan.refundAmount;
  attempt.refundReason = plan.refundReason;
  if (paid.length > 0) await closeOpenAttempts(tx, paid.map((order) => order.id), attempt.id, 'ORDER_PAID', now);
  return { effect, paidOrderRefs: paid.map((order) => order.orderRef).sort(), refundAmount: plan.refundAmount };
}

/**
 * Closes every INITIATED attempt covering any of `orderIds` (except `keep`): their checkout pages
 * stop accepting payment. The gateway's word on them is still awaited (reconciliation).
 */
export async function closeOpenAttempts(
  tx: EntityManager,
  orderIds: string[],
  keep: string | undefined,
  reason: Exclude<ClosedReason, 'EXPIRED'>,
  now: Date,
  supersededBy?: string,
): Promise<PaymentAttempt[]> {
  const lines = await tx.find(PaymentAttemptOrder, { order: { $in: orderIds }, attempt: { status: 'INITIATED' } }, { fields: ['attempt'] });
  const ids = [...new Set(lines.map((line) => line.attempt.id))].filter((id) => id !== keep);
  if (ids.length === 0) return [];
  // Re-checked under the lock: another transaction may have settled one meanwhile.
  const locked = await tx.find(PaymentAttempt, { id: { $in: ids } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true });
  const open = locked.filter((attempt) => attempt.status === 'INITIATED');
  for (const attempt of open) {
    attempt.status = 'CANCELLED';
    attempt.closedReason = reason;
    attempt.completedAt = now;
    if (supersededBy) attempt.supersededBy = supersededBy;
  }
  return open;
}
