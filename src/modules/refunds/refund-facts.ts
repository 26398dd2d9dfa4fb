import { decimalStringFromMinor } from '../../kernel/money';
import type { RefundEventFacts } from '../webhooks';
import type { Refund } from './entities/refund';

/** What an audit entry keeps of a refund: it reads on its own. */
export function refundAuditDetails(refund: Refund): Record<string, unknown> {
  return {
    refundRef: refund.refundRef,
    cause: refund.cause,
    status: refund.status,
    paymentRef: refund.attempt.paymentRef,
    gateway: refund.gateway,
    amount: decimalStringFromMinor(refund.amount),
    fee: decimalStringFromMinor(refund.fee),
    currency: refund.currency,
    ...(refund.providerRefundRef ? { providerRefundRef: refund.providerRefundRef } : {}),
    ...(refund.note ? { note: refund.note } : {}),
  };
}

/** A refund as its webhooks carry it (refund.succeeded, refund.failed, order.cancelled's refund). */
export function refundEventFacts(refund: Refund): RefundEventFacts {
  return {
    refundRef: refund.refundRef,
    amount: refund.amount,
    cancellationFee: refund.fee,
    currency: refund.currency,
    status: refund.status,
    gateway: refund.gateway.toUpperCase(),
    paymentRef: refund.attempt.paymentRef,
    cause: refund.cause,
  };
}
