import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { kathmanduToday } from '../../kernel/business-date';
import { cashSettlementRefusal, recordAudit, findOrder, markOrderPaid } from '../orders';
import { nextReferenceMillis, paymentReference } from './rules/payment-reference';
import { payRequestFingerprint } from './rules/payment-request';
import type { Order } from '../orders/entities/order';
import { PaymentAttempt } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { closeOpenAttempts } from './settlement';
import { issuePolicyNumbers } from '../certificates';
import { recordPaymentEvents } from '../webhooks';
import { recordCommissionEarned } from '../commissions';

export interface CashPayment {
  order: Order;
  attempt: PaymentAttempt;
}

/**
 * `ops order record-cash`: the cash a CASH order was paid with, in one transaction under the
 * order's row lock. The cash becomes a payment attempt with gateway `cash`, born SUCCESS and
 * confirmed (the operator's word is the final one), whose one share is the order's total: so the
 * order has exactly one successful payment for its total, payment-status reports it like any
 * other payment (`paymentMethod: CASH`), and the reconciliation job never asks a gateway about
 * it. The order becomes PAID; a second record-cash finds it PAID and is refused. After the cover's
 * first day (Nepal) it is refused unless `forced` with a note, kept in the audit entry.
 */
export async function recordCashPayment(
  em: EntityManager,
  identifier: string,
  input: { amount: Minor; note?: string; forced?: boolean },
  actor: string,
  now = new Date(),
): Promise<CashPayment> {
  return em.transactional(async (tx) => {
    const order = await findOrder(tx, identifier, { lockForUpdate: true });
    if (input.forced && !input.note)
      throw new OperatorRefusal('--force needs a --note saying when and how the cash was paid');
    const refusal = cashSettlementRefusal(order, {
      amount: input.amount,
      today: kathmanduToday(now),
      forced: input.forced,
    });
    if (refusal) throw new OperatorRefusal(refusal);

    const last = await tx.findOne(PaymentAttempt, { orders: { order: order.id } }, { orderBy: { createdAt: 'desc' } });
    const millis = nextReferenceMillis(now.getTime(), last?.createdAt.getTime());
    const at = new Date(millis);
    const attempt = tx.create(PaymentAttempt, {
      paymentRef: paymentReference(order.orderRef, millis),
      company: order.company,
      scope: 'ORDER',
      gateway: 'cash',
      status: 'SUCCESS',
      amount: order.totalAmount,
      currency: order.currency,
      // Never a partner's key: a cash record takes no part in pay idempotency.
      idempotencyKey: randomUUID(),
      requestFingerprint: payRequestFingerprint({ target: { kind: 'ORDER', id: order.id }, gateway: 'cash' }),
      expiresAt: at,
      completedAt: at,
      gatewayConfirmedAt: at,
      createdAt: at,
      updatedAt: at,
    });
    tx.create(PaymentAttemptOrder, { attempt, order, amount: order.totalAmount, settlement: 'PAID' });
    // A CASH order cannot be paid online, so nothing should be open; should anything be, it must not take money too.
    await closeOpenAttempts(tx, [order.id], attempt.id, 'ORDER_PAID', at);
    markOrderPaid(order, at);
    await issuePolicyNumbers(tx, [order], at);
    await recordCommissionEarned(tx, {
      paymentRef: attempt.paymentRef,
      occurredAt: at,
      shares: [{ order, share: order.totalAmount }],
    });
    await recordPaymentEvents(tx, 'order.paid', attempt, { at, shares: [{ order, amount: order.totalAmount }] });
    recordAudit(tx, {
      actor,
      action: 'CASH_RECORDED',
      order,
      at,
      details: {
        paymentRef: attempt.paymentRef,
        amount: decimalStringFromMinor(attempt.amount),
        currency: attempt.currency,
        note: input.note ?? null,
        // Only a record the rule would have refused says so: the others keep their shape.
        ...(input.forced === true && order.coverageStartDate < kathmanduToday(now)
          ? { forcedAfterCoverStart: true }
          : {}),
      },
    });
    await tx.flush();
    return { order, attempt };
  });
}
