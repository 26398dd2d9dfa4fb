import { randomUUID } from 'node:crypto';
import { wrap, type EntityManager } from '@mikro-orm/postgresql';
import { amountFromMinor } from '../../kernel/money';
import type { Order } from '../orders/entities/order';
import type { PaymentAttempt } from '../payments/entities/payment-attempt';
import { WebhookEvent } from './entities/webhook-event';
import type { Schemas } from '../../kernel/http/wire';

/**
 * The events partners can receive: the contract's one enum (schema WebhookEventType), which names
 * exactly the entries of the OpenAPI document's `webhooks` (test/webhooks checks that they agree).
 */
export type WebhookEventType = Schemas['WebhookEventType'];
export type PaymentEventType = Extract<
  WebhookEventType,
  | 'order.paid'
  | 'payment.failed'
  | 'payment.expired'
  | 'payment.cancelled'
  | 'payment.refund_pending'
  | 'payment.partially_reversed'
>;
export type RefundEventType = Extract<WebhookEventType, 'refund.succeeded' | 'refund.failed'>;

/** The payment an event is about, as the order sees it. */
interface PaymentFacts {
  paymentRef: string;
  paymentStatus: string;
  paymentMethod: string;
  /** The whole attempt's amount: a group payment's total, else the order's own amount. */
  paymentAmount: number;
}

/**
 * Adds one event to the caller's transaction (the outbox): it commits with the change it
 * announces or not at all, and the job queue delivers it after the commit. Every state change a
 * partner hears about calls this, so the body is built once, here.
 */
export function recordWebhookEvent(
  tx: EntityManager,
  companyId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  at = new Date(),
  marks: EventMarks = {},
): WebhookEvent {
  return tx.create(WebhookEvent, newWebhookEvent(companyId, type, data, at, marks));
}

/** `sandbox`: an event a partner sent itself (POST /sandbox/events), marked in its body and filterable in GET /events. */
export interface EventMarks {
  sandbox?: boolean;
}

/**
 * The outbox row recordWebhookEvent adds, for a use case that writes its rows with one statement
 * of its own (the assistance case's opening): the same id, body and state either way.
 */
export function newWebhookEvent(
  companyId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  at: Date,
  { sandbox = false }: EventMarks = {},
): {
  id: string;
  companyId: string;
  type: WebhookEventType;
  createdAt: Date;
  status: 'PENDING';
  sandbox: boolean;
  payload: Record<string, unknown>;
} {
  const id = `evt_${randomUUID().replaceAll('-', '')}`;
  // Real events omit the marker (decision record 0090): only a synthetic one says `sandbox: true`.
  return {
    id,
    companyId,
    type,
    createdAt: at,
    status: 'PENDING',
    sandbox,
    payload: { id, type, timestamp: at.toISOString(), ...(sandbox ? { sandbox: true } : {}), data },
  };
}

/** What a partner needs about an order to act on an event without a second call. */
function orderFacts(order: Order, amountMinor: number): Record<string, unknown> {
  return {
    orderId: order.id,
    orderRef: order.orderRef,
    orderNumber: order.orderNumber,
    orderStatus: order.status,
    groupRef: order.group?.groupRef ?? null,
    amount: amountFromMinor(amountMinor),
    currency: order.currency,
  };
}

/**
 * One event per order an attempt covers (a group payment announces each of its orders, with the
 * order's own share as `amount`), or only the orders in `onlyOrderIds` when given. `shares` names
 * the orders of an attempt created in this very transaction (not yet readable from the database).
 */
export async function recordPaymentEvents(
  tx: EntityManager,
  type: PaymentEventType,
  attempt: PaymentAttempt,
  options: {
    at: Date;
    reason?: string | null;
    onlyOrderIds?: readonly string[];
    shares?: readonly { order: Order; amount: number }[];
  },
): Promise<void> {
  let shares = options.shares;
  if (!shares) {
    if (!attempt.orders.isInitialized()) await tx.populate(attempt, ['orders.order']);
    shares = attempt.orders.getItems();
  }
  shares = shares.filter((share) => !options.onlyOrderIds || options.onlyOrderIds.includes(share.order.id));
  await populateGroups(
    tx,
    shares.map((share) => share.order),
  );
  const payment: PaymentFacts = {
    paymentRef: attempt.paymentRef,
    paymentStatus: attempt.status,
    paymentMethod: attempt.gateway.toUpperCase(),
    paymentAmount: amountFromMinor(attempt.amount),
  };
  for (const share of shares) {
    // A paid order has its policy number (issued in the same transaction, before this): the partner issues the booking from it.
    const policy = type === 'order.paid' ? { policyNumber: share.order.policyNumber ?? null } : {};
    recordWebhookEvent(
      tx,
      share.order.company.id,
      type,
      { ...orderFacts(share.order, share.amount), ...payment, reason: options.reason ?? null, ...policy },
      options.at,
    );
  }
}

/** A refund as its events show it (amounts in minor units; the payments module builds it). */
export interface RefundEventFacts {
  refundRef: string;
  amount: number;
  cancellationFee: number;
  currency: string;
  status: string;
  gateway: string;
  paymentRef: string;
  cause: string;
}

/** A refund's fields in an event's `data`. */
export function refundData(refund: RefundEventFacts): Record<string, unknown> {
  return {
    refundRef: refund.refundRef,
    amount: amountFromMinor(refund.amount),
    cancellationFee: amountFromMinor(refund.cancellationFee),
    currency: refund.currency,
    status: refund.status,
    gateway: refund.gateway,
    paymentRef: refund.paymentRef,
    cause: refund.cause,
  };
}

/**
 * `order.cancelled`: the order was cancelled (by its company through the API, by an operator, or
 * because the provider reversed its payment), with the refund it made, if any.
 */
export async function recordOrderCancelledEvent(
  tx: EntityManager,
  order: Order,
  at: Date,
  cancellation: { reason: string; refund?: RefundEventFacts | null } = { reason: 'CANCELLED_BY_OPERATOR' },
): Promise<void> {
  await populateGroups(tx, [order]);
  recordWebhookEvent(
    tx,
    order.company.id,
    'order.cancelled',
    {
      ...orderFacts(order, order.totalAmount),
      paymentRef: cancellation.refund?.paymentRef ?? null,
      paymentStatus: null,
      reason: cancellation.reason,
      refund: cancellation.refund ? refundData(cancellation.refund) : null,
    },
    at,
  );
}

/** `refund.succeeded` / `refund.failed`: the money of a refund went back, or the provider refused it for good. */
export async function recordRefundEvent(
  tx: EntityManager,
  type: RefundEventType,
  refund: RefundEventFacts,
  order: Order,
  at: Date,
): Promise<void> {
  await populateGroups(tx, [order]);
  recordWebhookEvent(tx, order.company.id, type, { ...orderFacts(order, refund.amount), ...refundData(refund) }, at);
}

/** The dates an `order.amended` event reports, before and after the change. */
export interface AmendedDates {
  departureDate: string;
  coverageStartDate: string;
  coverageEndDate: string;
}

/** `order.amended`: the placing company moved the order's departure date; `order` carries the new dates. */
export async function recordOrderAmendedEvent(
  tx: EntityManager,
  order: Order,
  previous: AmendedDates,
  at: Date,
): Promise<void> {
  await populateGroups(tx, [order]);
  recordWebhookEvent(
    tx,
    order.company.id,
    'order.amended',
    {
      orderId: order.id,
      orderRef: order.orderRef,
      orderNumber: order.orderNumber,
      orderStatus: order.status,
      groupRef: order.group?.groupRef ?? null,
      policyNumber: order.policyNumber ?? null,
      amendedAt: at.toISOString(),
      departureDate: order.departureDate,
      coverageStartDate: order.coverageStartDate,
      coverageEndDate: order.coverageEndDate,
      previous,
    },
    at,
  );
}

/** The event type that announces an attempt ending without paying anything. */
export function endedPaymentEventType(status: 'FAILED' | 'CANCELLED' | 'EXPIRED'): PaymentEventType {
  return status === 'FAILED' ? 'payment.failed' : status === 'CANCELLED' ? 'payment.cancelled' : 'payment.expired';
}

/**
 * An event names the order's group by its reference: the groups not loaded yet are loaded (an
 * order of no group, the usual case, costs no statement; MikroORM's populate would reselect the
 * orders to find out).
 */
async function populateGroups(tx: EntityManager, orders: readonly Order[]): Promise<void> {
  const unloaded = orders.filter((order) => order.group && !wrap(order.group).isInitialized());
  if (unloaded.length > 0) await tx.populate(unloaded, ['group']);
}

/** `order.extended`: an extension of the order's cover was applied; `coverageEndDate` is the new last day. */
export async function recordOrderExtendedEvent(
  tx: EntityManager,
  order: Order,
  extension: {
    amendmentRef: string;
    paymentRef?: string | null;
    amountDue: number;
    previousCoverageEndDate: string;
    disruption?: { disruptionRef: string } | null;
  },
  at: Date,
): Promise<void> {
  await populateGroups(tx, [order]);
  recordWebhookEvent(
    tx,
    order.company.id,
    'order.extended',
    {
      orderId: order.id,
      orderRef: order.orderRef,
      orderNumber: order.orderNumber,
      orderStatus: order.status,
      groupRef: order.group?.groupRef ?? null,
      policyNumber: order.policyNumber ?? null,
      amendmentRef: extension.amendmentRef,
      paymentRef: extension.paymentRef ?? null,
      amountPaid: amountFromMinor(extension.amountDue),
      extendedAt: at.toISOString(),
      coverageStartDate: order.coverageStartDate,
      coverageEndDate: order.coverageEndDate,
      previousCoverageEndDate: extension.previousCoverageEndDate,
      disruptionId: extension.disruption?.disruptionRef ?? null,
    },
    at,
  );
}
