import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { conflict, invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { Order, OrderStatus } from './entities/order';
import { OrderCancellation } from './entities/order-cancellation';
import { PaymentAttemptOrder } from '../payments/entities/payment-attempt-order';
import type { PaymentAttempt } from '../payments/entities/payment-attempt';
import { Refund } from '../payments/entities/refund';
import { findOrder, resolveOrder } from './order-lookup';
import { recordAudit } from './audit-log';
import { lockPromoCodes, ORDER_PROMO_POPULATE, pricePartsOf, releaseUses, slotsOfOrder, writeSlots } from './promo-slot-store';
import { clearSlots, projectTotals } from './rules/promo-slots';
import { cancellationFingerprint, cancellationTerms, type CancellationReason, type CancellationSettings, type CancellationTerms, type PartnerCancellationReason } from './rules/cancellation';
import { recordOrderCancelledEvent, type RefundEventFacts } from '../webhooks';


/**
 * What the orders module needs of payments to cancel an order (payments builds on orders, so
 * orders cannot import it): given through the request scope's services like
 * promoAtOrderCreation, made by payments' `cancellationPayments(deps)`.
 */
export interface CancellationPayments {
  settings: CancellationSettings;
  /**
   * Runs `change` (one whole transaction that calls assertNoOpenAttempts) with the order's open
   * checkouts put to their gateways first: a capture settles the order PAID before `change` runs
   * again; the others are closed (passed to `change`). `expectedInTheWay`, when given, names the
   * attempts whose gateways are asked before the first round; `change` records their answers in
   * its own transaction (`recordAnswers`, before it locks anything), which answers those it closed.
   */
  withOpenAttemptsClosed<T>(
    em: EntityManager,
    change: (closedBefore: readonly ClosedAttempt[], recordAnswers: (tx: EntityManager) => Promise<{ closed: ClosedAttempt[]; lockedOrderIds: string[] }>) => Promise<T>,
    expectedInTheWay?: () => Promise<readonly PaymentAttempt[]>,
  ): Promise<T>;
  assertNoOpenAttempts(tx: EntityManager, orderIds: string[]): Promise<void>;
  /** The open attempts of these orders, read without locks. */
  openAttempts(em: EntityManager, orderIds: readonly string[]): Promise<PaymentAttempt[]>;
  /** Records the refund of a paid share in the caller's transaction (PENDING, or MANUAL where the provider has no refund API). */
  recordRefund(tx: EntityManager, input: { order: Order; attempt: PaymentAttempt; amount: Minor; fee: Minor; actor: string; at: Date }): Promise<Refund>;
  /** After commit: the executor makes the refund now rather than at its next pass. */
  kickRefunds(): void;
  /** A refund as the webhooks carry it (payments' one projection, shared with refund.succeeded/failed). */
  refundEventFacts(refund: Refund): RefundEventFacts;
}

/** A checkout closed for the cancellation, as its audit entry names it. */
type ClosedAttempt = Pick<PaymentAttempt, 'id' | 'paymentRef'>;

export interface CancellationInput {
  reason: PartnerCancellationReason;
  note?: string;
}

/** The terms a preview shows, with the order's reference and currency. */
export interface CancellationPreview extends CancellationTerms {
  orderRef: string;
  currency: string;
}

/** A cancelled order, as the cancellation answer and the order detail show it. */
export interface CancellationView {
  order: Order;
  cancellation: OrderCancellation;
  refund: Refund | null;
  /** The order was unpaid when asked, and a checkout the customer had just paid made it PAID first. */
  paidWhileCancelling: boolean;
  /** The answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  /** For the operator: promo codes given back and checkouts closed. */
  releasedCodes: string[];
  closedPaymentRefs: string[];
}

/** POST /orders/{orderRef}/cancellation/preview: the terms now, nothing changed, no gateway asked. */
export async function previewCancellation(em: EntityManager, principal: Principal, identifier: string, settings: CancellationSettings, now = new Date()): Promise<CancellationPreview> {
  const { order } = await resolveOrder(em, principal, identifier, { intent: 'ACT', strangerSeesNothing: true, populate: [] });
  const terms = await termsOf(em, order, settings, now, false);
  return { ...terms, orderRef: order.orderRef, currency: order.currency };
}

/**
 * POST /orders/{orderRef}/cancellation under its Idempotency-Key: one transaction, behind a
 * transaction-scoped advisory lock on (company, key) so that requests with one key, from any
 * number of processes, run one after another and the later ones answer the first one's result
 * (or a 409 when they asked for something else). Open checkouts of a pending order are put to
 * their gateways first (CancellationPayments.withOpenAttemptsClosed).
 */
export async function cancelOrderForPartner(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: CancellationInput,
  idempotencyKey: string,
  payments: CancellationPayments,
  now = new Date(),
): Promise<CancellationView> {
  const key = idempotencyKey.toLowerCase();
  // The checkout a pending order's cancellation finds open (the common case) is put to its gateway
  // first, once the caller is known to be the one that may cancel and the key is new.
  let resolvedBefore: string | undefined;
  const expectedInTheWay = async () => {
    const { order } = await resolveOrder(em.fork(), principal, identifier, { intent: 'ACT', populate: [] });
    resolvedBefore = order.id;
    if (order.status !== OrderStatus.Pending) return [];
    // Two reads at once on two pooled connections: the answer waits for one round trip, not two.
    const [keyUsed, open] = await Promise.all([
      em.fork().count(OrderCancellation, { company: principal.companyId, idempotencyKey: key }),
      payments.openAttempts(em.fork(), [order.id]),
    ]);
    return keyUsed ? [] : open;
  };
  const view = await payments.withOpenAttemptsClosed(em, (closedBefore, recordAnswers) => em.fork().transactional(async (tx) => {
    await tx.getConnection().execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`cancel:${principal.companyId}:${key}`], 'all', tx.getTransactionContext());
    const answers = await recordAnswers(tx);
    // Recording the checkout's answer locked its orders, this one among them (resolved by this caller, for this identifier, before).
    const order = resolvedBefore && answers.lockedOrderIds.includes(resolvedBefore)
      ? await lockedOrder(tx, resolvedBefore)
      : (await resolveOrder(tx, principal, identifier, { intent: 'ACT', lockForUpdate: true, populate: [...ORDER_PROMO_POPULATE] })).order;
    const fingerprint = cancellationFingerprint(order.id, input);
    const previous = await tx.findOne(OrderCancellation, { company: principal.companyId, idempotencyKey: key });
    if (previous) {
      if (previous.requestFingerprint !== fingerprint) {
        throw conflict('This Idempotency-Key was already used for a different cancellation request; use a new key for a new request');
      }
      return { order, cancellation: previous, refund: await cancellationRefund(tx, order.id), paidWhileCancelling: false, replayed: true, releasedCodes: [], closedPaymentRefs: [] };
    }
    return applyCancellation(tx, order, {
      reason: input.reason, note: input.note ?? null, actor: `api:${principal.companyId}`, company: principal.companyId, idempotencyKey: key, fingerprint,
    }, payments, now, [...closedBefore, ...answers.closed], false);
  }), expectedInTheWay);
  if (view.refund) payments.kickRefunds();
  return view;
}

/**
 * `ops order cancel`: the operator cancels any order that is not cancelled yet: a pending one
 * (as before), and, with a note, a paid one even once its cover has started (the refund follows
 * the fee rule of its payment date).
 */
export async function cancelOrderAsOperator(
  em: EntityManager,
  identifier: string,
  options: { actor: string; note?: string | null },
  payments: CancellationPayments,
  now = new Date(),
): Promise<CancellationView> {
  const view = await payments.withOpenAttemptsClosed(em, (closedBefore) => em.fork().transactional(async (tx) => {
    const order = await findOrder(tx, identifier, { lockForUpdate: true, populate: [...ORDER_PROMO_POPULATE] });
    if (order.status !== OrderStatus.Pending && !options.note) {
      throw new OperatorRefusal(`order ${order.orderRef} is ${order.status}; only a PENDING order can be cancelled without --note (a paid order is cancelled with a refund: give --note)`);
    }
    return applyCancellation(tx, order, { reason: 'OPERATOR', note: options.note ?? null, actor: options.actor }, payments, now, closedBefore, true);
  }));
  if (view.refund) payments.kickRefunds();
  return view;
}

/** An order this transaction has locked and read already: taken from its identity map, with the promo slots' owners. */
async function lockedOrder(tx: EntityManager, orderId: string): Promise<Order> {
  const order = await tx.findOneOrFail(Order, orderId);
  await tx.populate(order, [...ORDER_PROMO_POPULATE]);
  return order;
}

interface CancellationRecord {
  reason: CancellationReason;
  note: string | null;
  actor: string;
  company?: string;
  idempotencyKey?: string;
  fingerprint?: string;
}

async function applyCancellation(
  tx: EntityManager,
  order: Order,
  record: CancellationRecord,
  payments: CancellationPayments,
  now: Date,
  closedBefore: readonly ClosedAttempt[],
  asOperator: boolean,
): Promise<CancellationView> {
  const refuse = (message: string) => (asOperator ? new OperatorRefusal(message) : invalid(message));
  const existing = order.status === OrderStatus.Cancelled ? await tx.findOne(OrderCancellation, { order: order.id }) : null;
  const terms = await termsOf(tx, order, payments.settings, now, asOperator, existing?.cancelledAt);
  if (!terms.cancellable) throw refuse(terms.notCancellableReason ?? `Order ${order.orderRef} cannot be cancelled`);

  const previousStatus = order.status;
  let releasedCodes: string[] = [];
  let refund: Refund | null = null;
  if (terms.rule === 'UNPAID') {
    // Nothing may still take money for it: an open checkout is put to its gateway first (and this runs again).
    await payments.assertNoOpenAttempts(tx, [order.id]);
    releasedCodes = await releasePromoSlots(tx, order);
  } else {
    const share = await paidShare(tx, order.id);
    if (share && terms.refundAmount + terms.cancellationFee > 0) {
      refund = await payments.recordRefund(tx, { order, attempt: share.attempt, amount: terms.refundAmount, fee: terms.cancellationFee, actor: record.actor, at: now });
    }
  }
  order.status = OrderStatus.Cancelled;
  const cancellation = tx.create(OrderCancellation, {
    order,
    reason: record.reason,
    note: record.note,
    cancelledAt: now,
    actor: record.actor,
    company: record.company ?? null,
    idempotencyKey: record.idempotencyKey ?? null,
    requestFingerprint: record.fingerprint ?? null,
  });
  // Every checkout closed for this change was one of this order's (found by its lines).
  const closedPaymentRefs = closedBefore.map((attempt) => attempt.paymentRef).sort();
  recordAudit(tx, {
    actor: record.actor,
    action: 'ORDER_CANCELLED',
    order,
    at: now,
    details: {
      previousStatus,
      reason: record.reason,
      ...(record.note ? { note: record.note } : {}),
      rule: terms.rule,
      refundRef: refund?.refundRef ?? null,
      refundAmount: decimalStringFromMinor(terms.refundAmount),
      cancellationFee: decimalStringFromMinor(terms.cancellationFee),
      currency: order.currency,
      releasedPromoCodes: releasedCodes,
      closedPaymentRefs,
    },
  });
  await recordOrderCancelledEvent(tx, order, now, {
    reason: record.reason === 'OPERATOR' ? 'CANCELLED_BY_OPERATOR' : record.reason,
    refund: refund ? payments.refundEventFacts(refund) : null,
  });
  await tx.flush();
  // A checkout the customer paid while this request closed it: settled (PAID) just now, then cancelled with its refund.
  const paidWhileCancelling = !!order.paidAt && order.paidAt.getTime() >= now.getTime();
  return { order, cancellation, refund, paidWhileCancelling, replayed: false, releasedCodes, closedPaymentRefs };
}

async function termsOf(em: EntityManager, order: Order, settings: CancellationSettings, now: Date, asOperator: boolean, cancelledAt?: Date): Promise<CancellationTerms> {
  const paid = order.paidAt && order.status !== OrderStatus.Cancelled ? await paidShare(em, order.id) : null;
  let when = cancelledAt;
  if (order.status === OrderStatus.Cancelled && !when) when = (await em.findOne(OrderCancellation, { order: order.id }))?.cancelledAt;
  return cancellationTerms({
    orderRef: order.orderRef,
    status: order.status,
    coverageStartDate: order.coverageStartDate,
    paidAt: order.paidAt,
    paidShare: paid?.amount ?? 0,
    cancelledAt: when,
  }, now, settings, asOperator);
}

/** The share of the payment that paid the order, with its attempt. */
async function paidShare(em: EntityManager, orderId: string): Promise<{ attempt: PaymentAttempt; amount: Minor } | null> {
  const line = await em.findOne(PaymentAttemptOrder, { order: orderId, settlement: 'PAID' }, { populate: ['attempt'] });
  return line ? { attempt: line.attempt, amount: line.amount } : null;
}

/** An unpaid order's promo slots are emptied and each code's use given back (as a promo removal would); answers the codes released. */
export async function releasePromoSlots(tx: EntityManager, order: Order): Promise<string[]> {
  const slots = slotsOfOrder(order);
  const change = clearSlots(slots);
  const released = [slots.company?.code, slots.agent?.code].filter((code): code is string => !!code);
  if (change.changed) {
    await lockPromoCodes(tx, change.release);
    for (const codeId of change.release) await releaseUses(tx, codeId, 1);
    writeSlots(order, change.slots, projectTotals(pricePartsOf(order), change.slots));
  }
  return released;
}

/** The refund a cancellation made for the order (or the reversal at the provider that cancelled it), if any. */
export function cancellationRefund(em: EntityManager, orderId: string): Promise<Refund | null> {
  return em.findOne(Refund, { order: orderId, cause: { $in: ['CANCELLATION', 'PROVIDER_REVERSAL'] } }, { populate: ['attempt'], orderBy: { createdAt: 'asc' } });
}

/** The cancellation of an order and its refund, for the order detail; null for an order not cancelled. */
export async function cancellationOf(em: EntityManager, order: Order): Promise<{ cancellation: OrderCancellation; refund: Refund | null } | null> {
  if (order.status !== OrderStatus.Cancelled) return null;
  const cancellation = await em.findOne(OrderCancellation, { order: order.id });
  if (!cancellation) return null;
  return { cancellation, refund: await cancellationRefund(em, order.id) };
}
