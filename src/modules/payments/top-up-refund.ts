import type { EntityManager } from '@mikro-orm/postgresql';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { extensionsOfTopUp, recordAudit, type OrderAmendment } from '../orders';
import { lockSharesForRefunds, recordRefund, refundsHolding, refundStart } from '../refunds';
import type { Refund } from '../refunds/entities/refund';
import { PaymentAttempt } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import type { PaymentDeps } from './payment-deps';

/** A top-up refunded on its own, with the extension it paid. */
export interface TopUpRefund {
  refund: Refund;
  amendment: OrderAmendment;
}

/**
 * `ops refund top-up <paymentRef> --note` (decision record 0099): the operator gives back an
 * applied extension's top-up on its own, what is left of it, through the provider that took it
 * (refunded by the executor, or MANUAL where the provider has no refund API). The extended cover
 * stays: this is money given back (a top-up the operator waives, a weather extension granted
 * free afterwards), not the extension withdrawn. Under the share's refund lock (decision 0091).
 */
export async function refundTopUp(
  em: EntityManager,
  paymentRef: string,
  options: { actor: string; note: string },
  deps: Pick<PaymentDeps, 'gateways' | 'kickRefunds' | 'refundWrites' | 'metrics'>,
  now = new Date(),
): Promise<TopUpRefund> {
  const done = await em.fork().transactional(async (tx) => {
    const attempt = await tx.findOne(PaymentAttempt, { paymentRef: paymentRef.trim() });
    if (!attempt) throw new OperatorRefusal(`no payment ${paymentRef}`);
    const [amendment, ...others] = await extensionsOfTopUp(tx, attempt.paymentRef);
    // A group's top-up is a share per member (decision record 0108): which member's is not this command's to guess.
    if (amendment && others.length > 0)
      throw new OperatorRefusal(
        `payment ${attempt.paymentRef} is the top-up of a group's extension (${others.length + 1} members): a member's share goes back with its cancellation (ops order cancel --note)`,
      );
    if (!amendment)
      throw new OperatorRefusal(
        `payment ${attempt.paymentRef} is not an extension's top-up: an order's own payment goes back with its cancellation (ops order cancel --note)`,
      );
    const order = amendment.order;
    await lockSharesForRefunds(tx, attempt.id, [order.id]);
    const share = await tx.findOne(PaymentAttemptOrder, { attempt: attempt.id, order: order.id }, { refresh: true });
    if (amendment.status !== 'APPLIED' || !share || share.settlement !== 'PAID')
      throw new OperatorRefusal(
        `the top-up ${attempt.paymentRef} of ${amendment.amendmentRef} is not a captured top-up of an applied extension (extension ${amendment.status}, share ${share?.settlement ?? 'none'}): nothing of it is left to give back this way`,
      );
    const amount = share.amount - (await refundsHolding(tx, { attemptId: attempt.id, orderId: order.id }));
    const refund = await recordRefund(
      tx,
      {
        order,
        attempt,
        cause: 'TOP_UP_REFUND',
        amount,
        actor: options.actor,
        at: now,
        start: refundStart(deps.gateways, attempt),
        note: options.note,
      },
      deps,
    );
    recordAudit(tx, {
      actor: options.actor,
      action: 'TOP_UP_REFUNDED',
      order,
      at: now,
      details: {
        amendmentRef: amendment.amendmentRef,
        paymentRef: attempt.paymentRef,
        refundRef: refund.refundRef,
        amount: refund.amount,
        note: options.note,
      },
    });
    await tx.flush();
    return { refund, amendment };
  });
  deps.kickRefunds?.();
  return done;
}
