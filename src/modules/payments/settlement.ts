import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { effectOfGatewayWord, endingStep, settlementPlan, type GatewayWordEffect } from './rules/payment-attempt';
import { moveAttempt, moveShare } from './attempt-life';
import { Order } from '../orders/entities/order';
import { PaymentAttempt } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import type { GatewayReport } from './providers/gateway';
import type { PaymentDeps } from './payment-deps';
import { issuePolicyNumbers } from '../certificates';
import { recordPaymentEvents } from '../webhooks';
import { recordCommissionEarned } from '../commissions';
import { recordRefund, refundStart } from '../refunds';
import { businessToday } from '../../kernel/business-today';
import { afterCommit } from '../../kernel/db/after-commit';
import { expireTopUpExtension, extensionsOfTopUp, markOrderPaid, settleTopUp, type OrderAmendment } from '../orders';
import type { SettlementPlan } from './rules/payment-attempt';

/**
 * Locks, in this order, every order the attempt pays for (by id) and then the attempt itself,
 * and returns the attempt freshly read. Pay, callback and reconciliation all take order rows
 * before attempt rows, so they queue behind each other instead of deadlocking.
 */
export async function lockAttemptForSettlement(tx: EntityManager, attemptId: string): Promise<PaymentAttempt> {
  const lines = await tx.find(PaymentAttemptOrder, { attempt: attemptId }, { fields: ['order'] });
  const orderIds = lines.map((line) => line.order.id).sort();
  if (orderIds.length > 0) {
    await tx.find(
      Order,
      { id: { $in: orderIds } },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true },
    );
  }
  const attempt = await tx.findOneOrFail(PaymentAttempt, attemptId, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
    refresh: true,
  });
  // The lines' orders are the ones just locked and read afresh: loading them again would be one more query.
  await tx.populate(attempt, ['orders'], { refresh: true });
  return attempt;
}

/** Whether a gateway's report is about this attempt's money: reference, amount and currency agree. */
export function reportMatches(
  attempt: Pick<PaymentAttempt, 'paymentRef' | 'amount' | 'currency'>,
  report: GatewayReport,
): boolean {
  return (
    report.paymentRef === attempt.paymentRef && report.amount === attempt.amount && report.currency === attempt.currency
  );
}

export interface RecordedWord {
  effect: GatewayWordEffect;
  paidOrderRefs: string[];
  refundAmount: number;
}

/** A capture: the orders it pays become PAID, the shares no order can take are owed back. */
async function recordCapture(
  tx: EntityManager,
  attempt: PaymentAttempt,
  now: Date,
  deps: Pick<PaymentDeps, 'logger' | 'metrics' | 'gateways' | 'kickRefunds' | 'refundWrites'>,
) {
  const lines = attempt.orders.getItems();
  const topUps = await extensionsOfTopUp(tx, attempt.paymentRef);
  if (topUps.length > 0) return recordTopUpCapture(tx, attempt, topUps, now, deps);
  const plan = settlementPlan(
    lines.map((line) => ({
      orderId: line.order.id,
      orderStatus: line.order.status,
      orderTotal: line.order.totalAmount,
      charged: line.amount,
      coverageStartDate: line.order.coverageStartDate,
    })),
    businessToday(now),
  );
  await moveAttempt(tx, attempt, {
    step: plan.attemptStatus === 'SUCCESS' ? 'CAPTURE' : 'CAPTURE_OWED',
    at: now,
    refundAmount: plan.refundAmount,
    refundReason: plan.refundReason,
  });
  const paid: Order[] = [];
  for (const line of lines) {
    if (plan.pay.includes(line.order.id)) {
      moveShare(line, 'PAY');
      markOrderPaid(line.order, now);
      paid.push(line.order);
    } else {
      moveShare(line, 'OWE');
    }
  }
  // Each share no order could take is a refund of its own, refunded by the executor where the provider can.
  const owedLines = lines.filter((line) => line.settlement === 'REFUND_PENDING');
  for (const line of owedLines) await refundOwedShare(tx, attempt, line, now, deps);
  if (paid.length > 0) {
    await issuePolicyNumbers(tx, paid, now);
    await recordCommissionEarned(tx, {
      paymentRef: attempt.paymentRef,
      occurredAt: now,
      shares: lines
        .filter((line) => line.settlement === 'PAID')
        .map((line) => ({ order: line.order, share: line.amount })),
    });
    await closeOpenAttempts(
      tx,
      paid.map((order) => order.id),
      attempt.id,
      'ORDER_PAID',
      now,
    );
  }
  // Partners hear of each order paid, and of each share captured for an order that could not take it.
  const paidIds = paid.map((order) => order.id);
  if (paid.length > 0) await recordPaymentEvents(tx, 'order.paid', attempt, { at: now, onlyOrderIds: paidIds });
  const owedIds = lines.map((line) => line.order.id).filter((id) => !paidIds.includes(id));
  if (owedIds.length > 0)
    await recordPaymentEvents(tx, 'payment.refund_pending', attempt, {
      at: now,
      reason: plan.refundReason ?? null,
      onlyOrderIds: owedIds,
    });
  if (plan.refundAmount > 0) {
    // Money the customer paid that no order took: its refunds above give it back (by the executor, or an operator for MANUAL ones).
    deps.logger.warn(
      { paymentRef: attempt.paymentRef, refundAmount: plan.refundAmount, refundReason: plan.refundReason },
      'captured money owed back to the customer',
    );
    deps.metrics?.lateCaptures.inc({ gateway: attempt.gateway });
  }
  return { paid, plan };
}

/**
 * A captured share no order takes is a refund of its own (cause LATE_CAPTURE), made by the executor
 * where the provider can once this transaction has committed: its own connection finds it then.
 */
async function refundOwedShare(
  tx: EntityManager,
  attempt: PaymentAttempt,
  line: PaymentAttemptOrder,
  now: Date,
  deps: Pick<PaymentDeps, 'gateways' | 'kickRefunds' | 'refundWrites' | 'metrics'>,
): Promise<void> {
  const start = refundStart(deps.gateways, attempt);
  await recordRefund(
    tx,
    {
      order: line.order,
      attempt,
      cause: 'LATE_CAPTURE',
      amount: line.amount,
      actor: 'payment-settlement',
      at: now,
      start,
    },
    deps,
  );
  afterCommit(tx, () => deps.kickRefunds?.());
}

/**
 * A captured extension top-up (decision record 0099): it pays no order, it applies its extension
 * when captured before the current cover ended; any other capture of it (after the cover ended,
 * for an extension closed meanwhile) is owed back as a late capture, refunded like any other.
 * A group's one top-up has a share per member, each paying that member's extension, all applied
 * or none (decision record 0108).
 */
async function recordTopUpCapture(
  tx: EntityManager,
  attempt: PaymentAttempt,
  amendments: OrderAmendment[],
  now: Date,
  deps: Pick<PaymentDeps, 'logger' | 'metrics' | 'gateways' | 'kickRefunds' | 'refundWrites'>,
): Promise<{ paid: Order[]; plan: SettlementPlan }> {
  const lines = attempt.orders.getItems();
  const shares = lines.map((line) => ({
    amendment: amendments.find((amendment) => amendment.order.id === line.order.id)!,
    charged: line.amount,
  }));
  const settled = await settleTopUp(tx, shares, now);
  if (settled.outcome === 'APPLIED') {
    await moveAttempt(tx, attempt, { step: 'CAPTURE', at: now, refundAmount: 0 });
    for (const line of lines) moveShare(line, 'PAY');
    // The top-up is premium only (its extension's price difference): all of it earns (decision record 0099).
    await recordCommissionEarned(tx, {
      paymentRef: attempt.paymentRef,
      occurredAt: now,
      shares: lines.map((line) => ({ order: line.order, share: line.amount, premiumOnly: true })),
    });
    return { paid: [], plan: { pay: [], refund: [], refundAmount: 0, attemptStatus: 'SUCCESS' } };
  }
  const owed = lines.reduce((sum, line) => sum + line.amount, 0);
  await moveAttempt(tx, attempt, {
    step: 'CAPTURE_OWED',
    at: now,
    refundAmount: owed,
    refundReason: settled.reason,
  });
  for (const line of lines) {
    moveShare(line, 'OWE');
    await refundOwedShare(tx, attempt, line, now, deps);
  }
  const orderIds = lines.map((line) => line.order.id);
  await recordPaymentEvents(tx, 'payment.refund_pending', attempt, {
    at: now,
    reason: settled.reason ?? null,
    onlyOrderIds: orderIds,
  });
  deps.logger.warn(
    { paymentRef: attempt.paymentRef, refundAmount: owed, refundReason: settled.reason },
    'extension top-up captured too late: owed back to the customer',
  );
  deps.metrics?.lateCaptures.inc({ gateway: attempt.gateway });
  return {
    paid: [],
    plan: {
      pay: [],
      refund: orderIds,
      refundAmount: owed,
      refundReason: settled.reason,
      attemptStatus: 'REFUND_PENDING',
    },
  };
}

/**
 * Records a gateway's final word about an attempt that `lockAttemptForSettlement` locked: the
 * attempt's status, and for a capture the orders it pays (PAID) or the refund it is owed. A word
 * after the gateway's first one (a replay) changes nothing.
 */
export async function recordGatewayWord(
  tx: EntityManager,
  attempt: PaymentAttempt,
  report: GatewayReport,
  now: Date,
  deps: Pick<PaymentDeps, 'logger' | 'metrics' | 'gateways' | 'kickRefunds' | 'refundWrites'>,
): Promise<RecordedWord> {
  const effect = effectOfGatewayWord(
    { status: attempt.status, gatewayConfirmed: !!attempt.gatewayConfirmedAt },
    report.status,
  );
  if (effect.kind === 'REPLAY') return { effect, paidOrderRefs: [], refundAmount: 0 };

  attempt.gatewayConfirmedAt = now;
  attempt.gatewayTransactionId = report.gatewayTransactionId;
  attempt.lastCheckedAt = now;
  if (effect.kind === 'CONFIRM_CLOSED') {
    attempt.failureReason ??= report.reason;
    return { effect, paidOrderRefs: [], refundAmount: 0 };
  }
  if (effect.kind === 'COMPLETE' && effect.status !== 'SUCCESS') {
    // A top-up's extension expires with its checkout (decision record 0099).
    await expireTopUpExtension(tx, attempt.paymentRef);
    await moveAttempt(tx, attempt, { step: endingStep(effect.status), at: now, failureReason: report.reason });
    return { effect, paidOrderRefs: [], refundAmount: 0 };
  }

  // The gateway captured the money (on time, or late for an attempt we had closed).
  const { paid, plan } = await recordCapture(tx, attempt, now, deps);
  return { effect, paidOrderRefs: paid.map((order) => order.orderRef).sort(), refundAmount: plan.refundAmount };
}

/**
 * Closes every INITIATED attempt covering any of `orderIds` (except `keep`) without asking its
 * gateway: only for orders just paid, which no other attempt can pay any more (a capture on one
 * is a refund owed whatever the gateway says). Every change that would orphan an attempt of an
 * order still to be paid goes through withOpenAttemptsClosed (open-attempts.ts) instead.
 */
export async function closeOpenAttempts(
  tx: EntityManager,
  orderIds: string[],
  keep: string | undefined,
  reason: 'ORDER_PAID',
  now: Date,
): Promise<PaymentAttempt[]> {
  const lines = await tx.find(
    PaymentAttemptOrder,
    { order: { $in: orderIds }, attempt: { status: 'INITIATED' } },
    { fields: ['attempt'] },
  );
  const ids = [...new Set(lines.map((line) => line.attempt.id))].filter((id) => id !== keep);
  if (ids.length === 0) return [];
  // Re-checked under the lock: another transaction may have settled one meanwhile.
  const locked = await tx.find(
    PaymentAttempt,
    { id: { $in: ids } },
    { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true },
  );
  const open = locked.filter((attempt) => attempt.status === 'INITIATED');
  for (const attempt of open) await moveAttempt(tx, attempt, { step: 'CANCEL', at: now, closedReason: reason });
  return open;
}
