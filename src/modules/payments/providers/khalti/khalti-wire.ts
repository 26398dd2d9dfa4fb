import type { GatewayReport, PaymentAtGateway, ReturnQuery } from '../gateway';
import { finalOutcome, type ProviderOutcome } from '../provider-outcome';
import type { ProviderReversalKind } from '../../rules/payment-attempt';

// Khalti's wire format (docs.khalti.com, Web Checkout KPG-2). Amounts are integer paisa on both
// the return and the lookup. Lookup statuses: Completed, Pending, Initiated, Refunded, Expired,
// User canceled, Partially Refunded.

/**
 * Final lookup states and the word each is for us; a refund before we heard of the capture leaves
 * the order unpaid, one after it is a reversal the payment watch records (payment-watch.ts).
 */
const FINAL: Record<string, Pick<GatewayReport, 'status' | 'reason'> & { reversal?: ProviderReversalKind }> = {
  Completed: { status: 'SUCCESS' },
  'User canceled': { status: 'CANCELLED', reason: 'CANCELLED_BY_CUSTOMER' },
  Expired: { status: 'EXPIRED', reason: 'EXPIRED_AT_PROVIDER' },
  Refunded: { status: 'FAILED', reason: 'REFUNDED_BY_PROVIDER', reversal: 'FULL' },
};

/**
 * Not decided yet. Partially Refunded keeps part of the money: for a payment we never recorded
 * as captured no order can take it (an operator's case); for a paid one it is a partial reversal.
 */
const OPEN: Record<string, { warn: boolean; reversal?: ProviderReversalKind }> = {
  Pending: { warn: false },
  Initiated: { warn: false },
  'Partially Refunded': { warn: true, reversal: 'PARTIAL' },
};

export function lookupOutcome(body: Record<string, unknown>, payment: PaymentAtGateway, now: Date): ProviderOutcome {
  const { pidx, status, total_amount: total, transaction_id: transactionId } = body;
  if (pidx !== payment.providerRef) return { kind: 'UNREADABLE', why: 'lookup answered about another pidx' };
  if (typeof status !== 'string') return { kind: 'UNREADABLE', why: 'lookup without a status' };
  const open = OPEN[status];
  if (open !== undefined) return { kind: 'OPEN', status, ...open };
  const word = FINAL[status];
  if (!word) return { kind: 'OPEN', status, warn: true };
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) return { kind: 'UNREADABLE', why: 'lookup without an integer total_amount' };
  const transaction = typeof transactionId === 'string' && transactionId !== '' ? transactionId : `pidx:${String(pidx)}`;
  return finalOutcome(payment, word, total, transaction, now);
}

/**
 * What a browser return claims, checked against the payment before Khalti is asked: the pidx we
 * stored, our reference as purchase_order_id, our amount. Returns the reason to refuse, if any.
 */
export function returnProblem(query: ReturnQuery, payment: PaymentAtGateway): string | undefined {
  if (!payment.providerRef) return 'no Khalti payment was started for this reference';
  if (query.pidx !== payment.providerRef) return 'pidx is not the one Khalti gave for this payment';
  if (query.purchase_order_id !== undefined && query.purchase_order_id !== payment.paymentRef) return 'purchase_order_id is not this payment';
  for (const field of ['amount', 'total_amount'] as const) {
    const value = query[field];
    if (value !== undefined && value !== '' && value !== String(payment.amount)) return `${field} is not this payment's amount in paisa`;
  }
  return undefined;
}
