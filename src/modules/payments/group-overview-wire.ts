import { amountFromMinor } from '../../kernel/money';
import type { Schemas } from '../../kernel/http/wire';
import { groupTotalsWire, orderSummaryWire } from '../orders';
import type { PaymentAttempt } from './entities/payment-attempt';
import type { GroupOverview } from './group-overview';

/** The group as the contract's OrderGroupOverview. */
export function groupOverviewWire({
  group,
  orders,
  rows,
  payment,
  latestGroupPayment,
}: GroupOverview): Schemas['OrderGroupOverview'] {
  return {
    groupRef: group.groupRef,
    groupId: group.id,
    createdAt: group.createdAt.toISOString(),
    orders: rows.map(orderSummaryWire),
    totals: groupTotalsWire(group, orders),
    payment: {
      status: payment.status,
      paidOrders: payment.paidOrders,
      pendingOrders: payment.pendingOrders,
      paidAmount: amountFromMinor(payment.paidAmount),
      outstandingAmount: amountFromMinor(payment.outstandingAmount),
      refundedAmount: amountFromMinor(payment.refundedAmount),
      netAmount: amountFromMinor(payment.netAmount),
      latestGroupPayment: latestGroupPayment ? groupAttemptWire(latestGroupPayment) : null,
    },
  };
}

/** Group payments are started online only (pay refuses cash), so their gateway is a card or a wallet. */
const GROUP_METHODS = { card_gateway: 'CARD_GATEWAY', wallet_gateway: 'WALLET_GATEWAY' } as const;

function groupAttemptWire(attempt: PaymentAttempt): Schemas['GroupPaymentAttempt'] {
  if (attempt.gateway === 'cash')
    throw new Error(`group payment ${attempt.paymentRef} is cash, which pay never starts`);
  return {
    paymentRef: attempt.paymentRef,
    paymentMethod: GROUP_METHODS[attempt.gateway],
    status: attempt.status,
    amount: amountFromMinor(attempt.amount),
    currency: attempt.currency,
    createdAt: attempt.createdAt.toISOString(),
    completedAt: attempt.completedAt?.toISOString() ?? null,
  };
}
