import type { EntityManager } from '@mikro-orm/postgresql';
import type { Document } from 'openapi-backend';
import { conflict } from '../../kernel/errors';
import { amountFromMinor } from '../../kernel/money';
import type { Principal } from '../../kernel/http/request-scope';
import { resolveOrder, type Order } from '../orders';
import { latestPaymentFacts } from '../payments';
import { latestRefundFacts } from '../refunds';
import { recordWebhookEvent, refundData, type WebhookEventType } from '../webhooks';
import { documentedEventData, withOrderFacts } from './sample-event';

/** The event types whose data is about a payment of the order, and those about a refund of it. */
const PAYMENT_TYPES: ReadonlySet<WebhookEventType> = new Set([
  'order.paid',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.refund_pending',
  'payment.partially_reversed',
]);
const REFUND_TYPES: ReadonlySet<WebhookEventType> = new Set(['refund.succeeded', 'refund.failed']);

/**
 * POST /sandbox/events: one event of any type, for the caller's own endpoints, through the outbox
 * like every event (the relay fans it out to the endpoints subscribed to its type; signing,
 * retries and the delivery log are the same), marked `sandbox: true` (decision record 0090).
 * About an order the caller may read (its own, or one it is a listed agency of), the payload is
 * that order's real facts, its latest payment and refund included; an event about a payment or
 * refund the order does not have is refused rather than filled with a sample one.
 */
export async function sendSandboxEvent(
  em: EntityManager,
  principal: Principal,
  document: Document,
  request: { type: WebhookEventType; orderRef?: string },
): Promise<string> {
  return em.fork().transactional(async (tx) => {
    let data = documentedEventData(document, request.type);
    if (request.orderRef !== undefined) {
      const { order } = await resolveOrder(tx, principal, request.orderRef, {
        intent: 'READ',
        populate: ['group'],
        strangerSeesNothing: true,
      });
      data = await withRealFacts(tx, withOrderFacts(data, order), order, request.type);
    }
    return recordWebhookEvent(tx, principal.companyId, request.type, data, new Date(), { sandbox: true }).id;
  });
}

async function withRealFacts(
  tx: EntityManager,
  data: Record<string, unknown>,
  order: Order,
  type: WebhookEventType,
): Promise<Record<string, unknown>> {
  const payment = await latestPaymentFacts(tx, order.id);
  const refund = await latestRefundFacts(tx, order.id);
  if (PAYMENT_TYPES.has(type) && !payment)
    throw conflict(
      `Order ${order.orderRef} has no payment: a ${type} about it would be made up; pay it first, or send the event without orderRef for sample data`,
    ).coded('SANDBOX_EVENT_FACTS_MISSING');
  if (REFUND_TYPES.has(type) && !refund)
    throw conflict(
      `Order ${order.orderRef} has no refund: a ${type} about it would be made up; cancel it after payment first, or send the event without orderRef for sample data`,
    ).coded('SANDBOX_EVENT_FACTS_MISSING');
  const merged = { ...data };
  if (payment && PAYMENT_TYPES.has(type))
    Object.assign(merged, {
      paymentRef: payment.paymentRef,
      paymentStatus: payment.paymentStatus,
      paymentMethod: payment.paymentMethod,
      paymentAmount: amountFromMinor(payment.paymentAmount),
      amount: amountFromMinor(payment.share),
      reason: payment.reason,
    });
  if (refund && REFUND_TYPES.has(type)) Object.assign(merged, refundData(refund));
  if (type === 'order.cancelled')
    Object.assign(merged, {
      paymentRef: refund?.paymentRef ?? null,
      refund: refund ? refundData(refund) : null,
    });
  return merged;
}
