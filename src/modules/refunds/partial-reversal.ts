import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { PaymentAttempt } from '../payments/entities/payment-attempt';
import { Refund } from './entities/refund';
import { recordRefund } from './refund-record';

/** What the operator read in the provider's portal about a partial reversal. */
export interface PartialReversalSeen {
  paymentRef: string;
  orderRef: string;
  amount: Minor;
  note: string;
  actor: string;
}

/**
 * `ops payment partial-reversal <paymentRef> --order --amount --note`: the provider gave part of
 * a paid payment back and did not say how much (the watch recorded it PARTIAL and told the
 * partner); the operator, having read the amount in the provider's portal, records it as a
 * refund SUCCEEDED of cause PROVIDER_REVERSAL for the order's share, with its audit entry and
 * `refund.succeeded`. The order stays paid. At most what the share has not had back yet.
 */
export async function recordPartialReversal(
  em: EntityManager,
  seen: PartialReversalSeen,
  now = new Date(),
): Promise<Refund> {
  return em.fork().transactional(async (tx) => {
    const attempt = await tx.findOne(
      PaymentAttempt,
      { paymentRef: seen.paymentRef.trim() },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['orders.order'] },
    );
    if (!attempt) throw new OperatorRefusal(`no payment attempt ${seen.paymentRef}`);
    if (attempt.providerReversal !== 'PARTIAL') {
      throw new OperatorRefusal(
        `the payment watch has seen no partial reversal of ${attempt.paymentRef}${attempt.providerReversal === 'FULL' ? ' (it was reversed in full: recorded already)' : ''}`,
      );
    }
    const share = attempt.orders.getItems().find((line) => line.order.orderRef === seen.orderRef.trim().toUpperCase());
    if (!share) throw new OperatorRefusal(`order ${seen.orderRef} has no share of payment ${attempt.paymentRef}`);
    const back = (await tx.find(Refund, { attempt: attempt.id, order: share.order.id, status: 'SUCCEEDED' })).reduce(
      (sum, refund) => sum + refund.amount,
      0,
    );
    const left = share.amount - back;
    if (seen.amount <= 0 || seen.amount > left) {
      throw new OperatorRefusal(
        `amount must be more than 0 and at most what the share has not had back: ${attempt.currency} ${decimalStringFromMinor(left)}`,
      );
    }
    return recordRefund(tx, {
      order: share.order,
      attempt,
      cause: 'PROVIDER_REVERSAL',
      amount: seen.amount,
      actor: seen.actor,
      at: now,
      start: 'FOUND_AT_PROVIDER',
      providerRefundRef: attempt.gatewayTransactionId ?? undefined,
      note: seen.note,
    });
  });
}
