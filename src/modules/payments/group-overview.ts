import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/http/request-scope';
import { OrderStatus, readGroup, type GroupReading } from '../orders';
import { PaymentAttempt } from './entities/payment-attempt';
import { OrderAmendment } from '../orders/entities/order-amendment';
import { minorFromDecimalString } from '../../kernel/money';
import { groupPaymentOf, type GroupPaymentSummary } from './rules/group-payment';

export interface GroupOverview extends GroupReading {
  payment: GroupPaymentSummary;
  latestGroupPayment: PaymentAttempt | null;
}

/**
 * `GET /orders/groups/{groupRef}`: the group and its orders (the orders module's read) with where
 * its payment stands, from the orders, their refunds (the order book's rows) and the group's
 * latest payment attempt.
 */
export async function groupOverview(
  em: EntityManager,
  principal: Principal,
  identifier: string,
): Promise<GroupOverview> {
  const reading = await readGroup(em, principal, identifier);
  // The group's payment, not a group extension's top-up (decision record 0108): that one pays no order.
  const topUps = await em.find(
    OrderAmendment,
    { order: { $in: reading.orders.map((order) => order.id) }, paymentRef: { $ne: null } },
    { fields: ['paymentRef'] },
  );
  const latestGroupPayment = await em.findOne(
    PaymentAttempt,
    { group: reading.group.id, scope: 'GROUP', paymentRef: { $nin: topUps.map((topUp) => topUp.paymentRef!) } },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  const refunds = new Map(reading.rows.map((row) => [row.order_ref, row]));
  const members = reading.orders.map((order) => {
    const row = refunds.get(order.orderRef);
    const refunded =
      row?.refund_amount && row.refund_status !== 'FAILED' ? minorFromDecimalString(row.refund_amount) : 0;
    return {
      pending: order.status === OrderStatus.Pending,
      paid: Boolean(order.paidAt),
      totalAmount: order.totalAmount,
      refunded,
    };
  });
  return { ...reading, latestGroupPayment, payment: groupPaymentOf(members, latestGroupPayment?.status ?? null) };
}
