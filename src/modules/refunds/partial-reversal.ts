import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { PaymentAttempt } from '../payments/entities/payment-attempt';
import { Refund } from './entities/refund';
import { recordRefund } from './refund-record';
import type { RefundPorts } from './refund-deps';
import { lockShareForRefunds, refundsHolding } from './share-room';

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
  ports: RefundPorts,
  seen: PartialReversalSeen,
  now = new Date(),
): Promise<Refund> {
  return em.fork().transactional(async (tx) => {
    const found = await tx.findOne(
      PaymentAttempt,
      { paymentRef: seen.paymentRef.trim() },
      { populate: ['orders.order'] },
    );
    if (!found) throw new OperatorRefusal(`no payment attempt ${seen.paymentRef}`);
    const share = found.orders.getItems().find((line) => line.order.orderRef === seen.orderRef.trim().toUpperCase());
    if (!share) throw new OperatorRefusal(`order ${seen.orderRef} has no share of payment ${found.paymentRef}`);
    // The share's refund lock (decision 0091), then the payment as it is now: the watch may have moved it meanwhile.
    await lockShareForRefunds(tx, { attemptId: found.id, orderId: share.order.id });
    const attempt = await tx.findOneOrFail(PaymentAttempt, found.id, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      refresh: true,
    });
    if (attempt.providerReversal !== 'PARTIAL') {
      throw new OperatorRefusal(
        `the payment watch has seen no partial reversal of ${attempt.paymentRef}${attempt.providerReversal === 'FULL' ? ' (it was reversed in full: recorded already)' : ''}`,
      );
    }
    // Every refund of the share not FAILED holds its part: a MANUAL or PENDING one is money an operator or the executor gives back.
    const held = await refundsHolding(tx, { attemptId: attempt.id, orderId: share.order.id });
    const left = share.amount - held;
    if (seen.amount <= 0 || seen.amount > left) {
      const open = await tx.find(Refund, {
        attempt: attempt.id,
        order: share.order.id,
        status: { $in: ['PENDING', 'MANUAL'] },
      });
      const hint =
        open.length > 0
          ? ` (${open.map((refund) => `${refund.refundRef} ${refund.status}`).join(', ')} holds the rest: if the portal's reversal is that refund's money, ops refund confirm it with --amount)`
          : '';
      throw new OperatorRefusal(
        `amount must be more than 0 and at most what the share has not had back or owed back: ${attempt.currency} ${decimalStringFromMinor(Math.max(0, left))}${hint}`,
      );
    }
    return recordRefund(
      tx,
      {
        order: share.order,
        attempt,
        cause: 'PROVIDER_REVERSAL',
        amount: seen.amount,
        actor: seen.actor,
        at: now,
        start: 'FOUND_AT_PROVIDER',
        providerRefundRef: attempt.gatewayTransactionId ?? undefined,
        note: seen.note,
      },
      ports,
    );
  });
}
