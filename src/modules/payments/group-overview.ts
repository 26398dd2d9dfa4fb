import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/http/request-scope';
import { OrderStatus, readGroup, type GroupReading } from '../orders';
import { PaymentAttempt } from './entities/payment-attempt';
import { groupPaymentOf, type GroupPaymentSummary } from './rules/group-payment';

export interface GroupOverview extends GroupReading {
  payment: GroupPaymentSummary;
  latestGroupPayment: PaymentAttempt | null;
}

/**
 * `GET /orders/groups/{groupRef}`: the group and its orders (the orders module's read) with where
 * its payment stands, from the orders and the group's latest payment attempt.
 */
export async function groupOverview(
  em: EntityManager,
  principal: Principal,
  identifier: string,
): Promise<GroupOverview> {
  const reading = await readGroup(em, principal, identifier);
  const latestGroupPayment = await em.findOne(
    PaymentAttempt,
    { group: reading.group.id, scope: 'GROUP' },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  const members = reading.orders.map((order) => ({
    pending: order.status === OrderStatus.Pending,
    paid: Boolean(order.paidAt),
    totalAmount: order.totalAmount,
  }));
  return { ...reading, latestGroupPayment, payment: groupPaymentOf(members, latestGroupPayment?.status ?? null) };
}
