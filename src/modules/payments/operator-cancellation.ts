import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalStringFromMinor } from '../../kernel/money';
import { cancellationRefusal } from '../orders';
import { OrderStatus, type Order } from '../orders/entities/order';
import { recordAudit } from '../orders';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { findOrder } from '../orders';
import { assertNoOpenAttempts, withOpenAttemptsClosed } from './open-attempts';
import type { PaymentDeps } from './payment-deps';
import { recordOrderCancelledEvent } from '../webhooks';
import { ORDER_PROMO_POPULATE, releasePromoSlots } from '../orders';
import { cancelOrderAsOperator, OrderCancellation } from '../orders';
import type { Refund } from './entities/refund';
import { cancellationPayments } from './cancellation-port';

export interface CancelledOrder {
  order: Order;
  releasedCodes: string[];
  closedPaymentRefs: string[];
  /** The refund of a paid order's share (a paid order is cancelled only with a note). */
  refund?: Refund | null;
}

/**
 * `ops order cancel`: a PENDING order becomes CANCELLED in one transaction, with row locks in the
 * order pay and promo changes take them (order, promo codes by id, attempts by id):
 *
 * - its promo slots are emptied and each code's use given back, so a code's used_count keeps
 *   equal to the slots holding it; the total is repriced without them (the stored price parts
 *   always agree with the slots), and the audit entry keeps the codes and the former total;
 * - every open payment attempt covering it is first put to its gateway (withOpenAttemptsClosed):
 *   one the customer had already paid settles the order PAID, and the cancellation is refused;
 *   the others are closed (ORDER_CANCELLED, voided where the gateway can), so no checkout can
 *   take money for it any more; a capture that still arrives is recorded as a refund owed. A
 *   group attempt closes as a whole: the group's other orders need a new group pay.
 */
export async function cancelOrder(em: EntityManager, identifier: string, actor: string, deps: PaymentDeps, now = new Date(), note?: string): Promise<CancelledOrder> {
  if (note) {
    // With a note the operator may cancel a paid order too, even once its cover started: the partner API's rules, with a refund.
    const view = await cancelOrderAsOperator(em, identifier, { actor, note }, cancellationPayments(deps), now);
    return { order: view.order, releasedCodes: view.releasedCodes, closedPaymentRefs: view.closedPaymentRefs, refund: view.refund };
  }
  return withOpenAttemptsClosed(em, deps, 'ORDER_CANCELLED', (closedBefore) => em.fork().transactional(async (tx) => {
    const order = await findOrder(tx, identifier, { lockForUpdate: true });
    await tx.populate(order, [...ORDER_PROMO_POPULATE]);
    const refusal = cancellationRefusal(order);
    if (refusal) throw new OperatorRefusal(`${refusal}${order.status === OrderStatus.Paid ? ' without --note (a paid order is cancelled with a refund: give --note)' : ''}`);

    await assertNoOpenAttempts(tx, [order.id]);
    const totalBefore = order.totalAmount;
    const releasedCodes = await releasePromoSlots(tx, order);
    order.status = OrderStatus.Cancelled;
    tx.create(OrderCancellation, { order, reason: 'OPERATOR', note: null, cancelledAt: now, actor });
    const closedPaymentRefs = closedBefore.map((attempt) => attempt.paymentRef).sort();
    recordAudit(tx, {
      actor,
      action: 'ORDER_CANCELLED',
      order,
      at: now,
      details: {
        previousStatus: OrderStatus.Pending,
        releasedPromoCodes: releasedCodes,
        totalBefore: decimalStringFromMinor(totalBefore),
        totalAfter: decimalStringFromMinor(order.totalAmount),
        currency: order.currency,
        closedPaymentRefs,
      },
    });
    await recordOrderCancelledEvent(tx, order, now);
    await tx.flush();
    return { order, releasedCodes, closedPaymentRefs };
  }));
}
