import type { EntityManager } from '@mikro-orm/postgresql';
import type { Minor } from '../../kernel/money';
import { PaymentAttempt, type GatewayName } from './entities/payment-attempt';

/** What a gateway's checkout needs to know about a payment (the merchant's side of the handshake). */
export interface CheckoutView {
  paymentRef: string;
  gateway: GatewayName;
  amount: Minor;
  currency: string;
  orderRefs: string[];
  groupRef?: string;
  expiresAt: Date;
  /** Still INITIATED and not past its expiry: the gateway may take the payment. */
  open: boolean;
}

export async function checkoutView(
  em: EntityManager,
  paymentRef: string,
  now = new Date(),
): Promise<CheckoutView | null> {
  const attempt = await em.findOne(PaymentAttempt, { paymentRef }, { populate: ['orders.order', 'group'] });
  // Cash recorded by an operator never had a checkout: to a gateway it is an unknown payment.
  if (!attempt || attempt.gateway === 'cash') return null;
  return {
    paymentRef: attempt.paymentRef,
    gateway: attempt.gateway,
    amount: attempt.amount,
    currency: attempt.currency,
    orderRefs: attempt.orders
      .getItems()
      .map((line) => line.order.orderRef)
      .sort(),
    groupRef: attempt.group?.groupRef,
    expiresAt: attempt.expiresAt,
    open: attempt.status === 'INITIATED' && attempt.expiresAt.getTime() > now.getTime(),
  };
}
