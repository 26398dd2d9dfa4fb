import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { decimalStringFromMinor } from '../../kernel/money';
import { PaymentAttempt } from './entities/payment-attempt';
import { recordAudit } from '../orders';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { Refund } from './entities/refund';
import { recordCommissionReversal } from '../commissions';

/**
 * `ops payment refund <paymentRef>`: the operator's record that the money a capture owed back
 * (`refundAmount`) was returned to the customer, in one transaction under the attempt's row lock.
 * Every share owed back becomes REFUNDED, and the attempt too when none of it paid an order; each
 * order concerned gets an audit entry. The refund itself is made at the gateway (or by bank
 * transfer) by the operator: this only records it.
 */
export async function recordOperatorRefund(em: EntityManager, paymentRef: string, note: string, actor: string, now = new Date()): Promise<PaymentAttempt> {
  return em.transactional(async (tx) => {
    const attempt = await tx.findOne(PaymentAttempt, { paymentRef }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!attempt) throw new OperatorRefusal(`no payment attempt ${paymentRef}`);
    await tx.populate(attempt, ['orders.order']);
    const owed = attempt.orders.getItems().filter((line) => line.settlement === 'REFUND_PENDING');
    if (owed.length === 0) {
      throw new OperatorRefusal(`payment ${paymentRef} owes no refund${attempt.refundedAt ? ` (refund recorded ${attempt.refundedAt.toISOString()})` : ''}`);
    }
    for (const line of owed) {
      line.settlement = 'REFUNDED';
      // The refund records of these shares (late captures) are done too: the operator gave the money back.
      const done = await tx.find(Refund, { attempt: attempt.id, order: line.order.id, status: { $in: ['PENDING', 'MANUAL', 'FAILED'] } });
      for (const refund of done) await recordCommissionReversal(tx, { order: line.order, paymentRef, refundRef: refund.refundRef, refundedAmount: refund.amount, occurredAt: now });
      await tx.nativeUpdate(Refund, { attempt: attempt.id, order: line.order.id, status: { $in: ['PENDING', 'MANUAL', 'FAILED'] } }, {
        status: 'SUCCEEDED', completedAt: now, nextTryAt: null, note, updatedAt: now,
      });
      recordAudit(tx, {
        actor,
        action: 'REFUND_RECORDED',
        order: line.order,
        at: now,
        details: { paymentRef, amount: decimalStringFromMinor(line.amount), currency: attempt.currency, note },
      });
    }
    if (attempt.status === 'REFUND_PENDING') attempt.status = 'REFUNDED';
    attempt.refundedAt = now;
    attempt.refundNote = note;
    await tx.flush();
    return attempt;
  });
}

/** Every payment that owes money back, oldest first: the operator's to-do list. */
export function refundsOwed(em: EntityManager): Promise<PaymentAttempt[]> {
  return em.find(PaymentAttempt, { orders: { settlement: 'REFUND_PENDING' } }, { populate: ['orders.order', 'company'], orderBy: { completedAt: 'asc' } });
}
