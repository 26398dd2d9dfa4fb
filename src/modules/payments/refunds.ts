import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { kathmanduToday } from '../../kernel/business-date';
import { present } from '../../kernel/narrow';
import type { Order } from '../orders/entities/order';
import { recordAudit } from '../orders';
import { PaymentAttempt } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import { Refund } from './entities/refund';
import { formatRefundRef, refundSplitProblem, type RefundCause, type RefundStatus } from './rules/refund';
import { recordRefundEvent } from '../webhooks';
import { recordCommissionReversal } from '../commissions';
import type { GatewayRegistry } from './providers/gateway';
import type { PaymentMethod } from './entities/payment-attempt';

export { Refund };
export type { RefundCause, RefundStatus };

/** What a caller knows when money becomes owed back (or was found already given back). */
export interface RefundToRecord {
  order: Order;
  /** The payment whose share goes back. */
  attempt: PaymentAttempt;
  cause: RefundCause;
  /** What goes back to the customer, in minor units. */
  amount: Minor;
  /** What is kept (a cancellation fee); 0 when absent. */
  fee?: Minor;
  /** `api:<companyId>`, `operator-cli:<user>`, `reversal-watch` ... */
  actor: string;
  at?: Date;
  /**
   * PENDING (the default for a gateway payment): the executor refunds it through the provider
   * after commit. MANUAL: the provider has no refund API (eSewa, the sandbox wallet; the default
   * for cash). SUCCEEDED: the provider already gave the money back (a reversal the watch found).
   */
  status?: Extract<RefundStatus, 'PENDING' | 'MANUAL' | 'SUCCEEDED'>;
  provider?: string;
  providerRefundRef?: string;
  note?: string;
}

/**
 * Writes a refund record into the caller's transaction (it commits with what made the money owed,
 * or not at all): a `RFD-<year>-<seq>` reference from its sequence, the order's share of the
 * attempt marked REFUND_PENDING (REFUNDED when born SUCCEEDED), an audit entry, and the
 * `refund.succeeded` event when the money is already back. A PENDING refund is picked up by the
 * refund executor after commit (kickRefunds makes that immediate).
 */
export async function recordRefund(tx: EntityManager, input: RefundToRecord): Promise<Refund> {
  const at = input.at ?? new Date();
  const fee = input.fee ?? 0;
  const share = await tx.findOne(PaymentAttemptOrder, { attempt: input.attempt.id, order: input.order.id });
  const problem = refundSplitProblem(share?.amount ?? input.attempt.amount, input.amount, fee);
  if (problem) throw new Error(`refund of ${input.order.orderRef}: ${problem}`);
  const status = input.status ?? (input.attempt.gateway === 'cash' ? 'MANUAL' : 'PENDING');
  const refund = tx.create(Refund, {
    refundRef: await allocateRefundRef(tx, at),
    order: input.order,
    attempt: input.attempt,
    cause: input.cause,
    amount: input.amount,
    fee,
    currency: input.attempt.currency,
    status,
    gateway: input.attempt.gateway,
    provider: input.provider,
    providerRefundRef: input.providerRefundRef,
    nextTryAt: status === 'PENDING' ? at : null,
    completedAt: status === 'SUCCEEDED' ? at : null,
    note: input.note ?? null,
    actor: input.actor,
    createdAt: at,
    updatedAt: at,
  });
  if (share) share.settlement = status === 'SUCCEEDED' ? 'REFUNDED' : 'REFUND_PENDING';
  recordAudit(tx, {
    actor: input.actor,
    action: 'REFUND_CREATED',
    order: input.order,
    at,
    details: refundAuditDetails(refund),
  });
  if (status === 'SUCCEEDED') {
    await recordCommissionReversal(tx, { order: input.order, paymentRef: input.attempt.paymentRef, refundRef: refund.refundRef, refundedAmount: refund.amount, occurredAt: at });
    await settleAttemptWhenAllRefunded(tx, input.attempt, at);
    await recordRefundEvent(tx, 'refund.succeeded', refundEventFacts(refund), input.order, at);
  }
  return refund;
}

/**
 * How a new refund starts: PENDING where the provider that took the payment refunds through an API (the
 * executor does it), MANUAL where it cannot (eSewa, the sandbox wallet) and for cash. A gateway
 * no provider serves right now starts PENDING: the executor decides once one does.
 */
export function initialRefundStatus(gateways: GatewayRegistry, attempt: { gateway: PaymentMethod; provider?: string | null }): 'PENDING' | 'MANUAL' {
  if (attempt.gateway === 'cash') return 'MANUAL';
  const gateway = attempt.provider ? gateways.of(attempt.gateway, attempt.provider) : gateways.get(attempt.gateway);
  return gateway?.refunds === 'MANUAL' ? 'MANUAL' : 'PENDING';
}

async function allocateRefundRef(tx: EntityManager, at: Date): Promise<string> {
  // tx.execute runs inside the caller's transaction (the connection's execute would not).
  const [row] = await tx.execute<Array<{ seq: string }>>(`select nextval('refund_ref_seq')::text as seq`);
  return formatRefundRef(kathmanduToday(at).slice(0, 4), present(row, 'the nextval row').seq);
}

/**
 * A late-capture attempt (REFUND_PENDING: it paid nothing) reads REFUNDED once none of its
 * shares is owed any more; an attempt that paid orders keeps SUCCESS (each share says the rest).
 */
export async function settleAttemptWhenAllRefunded(tx: EntityManager, attempt: PaymentAttempt, at: Date): Promise<void> {
  if (attempt.status !== 'REFUND_PENDING') return;
  await tx.flush();
  const owed = await tx.count(PaymentAttemptOrder, { attempt: attempt.id, settlement: 'REFUND_PENDING' });
  if (owed > 0) return;
  attempt.status = 'REFUNDED';
  attempt.refundedAt = at;
}

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

/** A refund as webhooks and the API show it. */
export interface RefundFacts {
  refundRef: string;
  amount: Minor;
  cancellationFee: Minor;
  currency: string;
  status: RefundStatus;
  gateway: string;
  paymentRef: string;
  cause: RefundCause;
}

export function refundEventFacts(refund: Refund): RefundFacts {
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

/** The refunds of an order, oldest first. */
export function refundsOfOrder(em: EntityManager, orderId: string): Promise<Refund[]> {
  return em.find(Refund, { order: orderId }, { populate: ['attempt'], orderBy: { createdAt: 'asc', refundRef: 'asc' } });
}

/** The refund a cancellation made for an order, if any. */
export function cancellationRefundOf(em: EntityManager, orderId: string): Promise<Refund | null> {
  return em.findOne(Refund, { order: orderId, cause: 'CANCELLATION' }, { populate: ['attempt'] });
}
