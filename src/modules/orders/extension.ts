import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { businessToday } from '../../kernel/business-today';
import type { Minor } from '../../kernel/money';
import { MAX_TRIP_DAYS, pricePackage, type Disruption } from '../catalogue';
import { recordOrderExtendedEvent } from '../webhooks';
import { recordAudit } from './audit-log';
import { freeDaysOf, underDisruption } from './disruption-extension';
import { OrderStatus, type Order } from './entities/order';
import { OrderAmendment } from './entities/order-amendment';
import { resolveOrder } from './order-lookup';
import {
  extendedDuration,
  extensionPrice,
  extensionRefusal,
  extensionTimeRefusal,
  requestedEnd,
  type ExtensionAsk,
  type ExtensionRefusal,
} from './rules/extension';

/** What an extension of the order to `coverageEndDate` is, as the preview answers it. */
export interface ExtensionQuote {
  order: Order;
  coverageEndDate: string;
  durationDays: number;
  maxDurationDays: number;
  newPremium: Minor;
  premiumPaid: Minor;
  amountDue: Minor;
  /** Why it cannot be made now (cover ended, another extension open), or null. */
  refusalNow: ExtensionRefusal | null;
  /** The disruption it is made under, free (decision record 0102), or null. */
  disruption: Disruption | null;
}

/**
 * Prices the extension of a resolved order and applies the rules that can never be met (400):
 * only a paid order, a later end, within the package's maximum. The rules that only refuse it
 * now (the cover ended, an extension already open) are `refusalNow`.
 */
export async function quoteExtension(
  tx: EntityManager,
  order: Order,
  ask: ExtensionAsk,
  today: string,
): Promise<ExtensionQuote> {
  const current = { coverageStartDate: order.coverageStartDate, coverageEndDate: order.coverageEndDate };
  const newEnd = requestedEnd(current, ask);
  const facts = { orderRef: order.orderRef, orderStatus: order.status, current, newEnd, today };
  // Every package sells covers up to the quote's trip limit (decision record 0099).
  const refusal = extensionRefusal({ ...facts, maxDurationDays: MAX_TRIP_DAYS });
  if (refusal) throw invalid(refusal.message).coded(refusal.code);

  await tx.populate(order, ['ctg']);
  const durationDays = extendedDuration(current, newEnd);
  const applied = await tx.find(OrderAmendment, { order: order.id, status: 'APPLIED' });
  const premiumPaid = order.totalAmount + applied.reduce((sum, amendment) => sum + amendment.amountDue, 0);
  const under = ask.disruptionId ? await underDisruption(tx, order, ask.disruptionId, applied, newEnd, today) : null;
  // Days given free under a disruption are not charged by a later paid extension (decision record 0102).
  const repriced = pricePackage(
    order.ctg,
    durationDays - freeDaysOf(applied),
    new Set(order.excludedIncludedDeviceIds),
  );
  const price = extensionPrice(
    {
      totalAmount: order.totalAmount,
      insurancePrice: order.packagePrice + order.includedDevices.reduce((sum, d) => sum + d.priceForDuration, 0),
      addedItemsPrice: [...(order.addedServices ?? []), ...(order.addedDevices ?? [])].reduce(
        (sum, item) => sum + item.price * item.quantity,
        0,
      ),
    },
    repriced.totalAmount,
  );
  const open = await openAmendmentOf(tx, order);
  const refusalNow =
    under?.refusalNow ??
    extensionTimeRefusal(facts) ??
    (open ? { code: 'EXTENSION_ALREADY_OPEN' as const, message: openAmendmentMessage(open, order) } : null);
  return {
    order,
    coverageEndDate: newEnd,
    durationDays,
    maxDurationDays: MAX_TRIP_DAYS,
    // Under a disruption the days are free: the premium stays what was paid.
    newPremium: under ? premiumPaid : price.newPremium,
    premiumPaid,
    // What earlier applied top-ups paid counts as paid: a second extension pays only its own days.
    amountDue: under ? 0 : Math.max(0, price.newPremium - premiumPaid),
    refusalNow,
    disruption: under?.disruption ?? null,
  };
}

/** POST /orders/{orderRef}/extension/preview: the quote, in a read-only transaction. */
export async function previewExtension(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  ask: ExtensionAsk,
): Promise<ExtensionQuote> {
  const { order } = await resolveOrder(em, principal, identifier, { intent: 'ACT', populate: [] });
  return quoteExtension(em, order, ask, businessToday());
}

/** What the order's applied extensions' top-ups took (the order detail's `topUpAmount`). */
export async function topUpAmountOf(em: EntityManager, order: Pick<Order, 'id'>): Promise<Minor> {
  const applied = await em.find(OrderAmendment, { order: order.id, status: 'APPLIED', paymentRef: { $ne: null } });
  return applied.reduce((sum, amendment) => sum + amendment.amountDue, 0);
}

/** The order's extension awaiting its top-up, if any. */
export function openAmendmentOf(tx: EntityManager, order: Pick<Order, 'id'>): Promise<OrderAmendment | null> {
  return tx.findOne(OrderAmendment, { order: order.id, status: 'AWAITING_PAYMENT' });
}

const openAmendmentMessage = (open: OrderAmendment, order: Order) =>
  `Extension ${open.amendmentRef} of order ${order.orderRef} awaits its top-up; pay it or let it expire`;

/**
 * Records an extension the caller (the payments module's extension use case, holding the
 * order's row lock) has checked: AWAITING_PAYMENT with its top-up's reference, or APPLIED at
 * once when nothing is due.
 */
export async function recordExtension(
  tx: EntityManager,
  quote: ExtensionQuote,
  paymentRef: string | null,
  now: Date,
  actor: string,
  request?: { idempotencyKey: string; fingerprint: string },
): Promise<OrderAmendment> {
  const count = await tx.count(OrderAmendment, { order: quote.order.id });
  const amendment = tx.create(OrderAmendment, {
    amendmentRef: `${quote.order.orderRef}-EXT-${count + 1}`,
    order: quote.order,
    kind: 'EXTENSION',
    previousCoverageEndDate: quote.order.coverageEndDate,
    coverageEndDate: quote.coverageEndDate,
    durationDays: quote.durationDays,
    newPremium: quote.newPremium,
    amountDue: quote.amountDue,
    paymentRef,
    idempotencyKey: request?.idempotencyKey.toLowerCase() ?? null,
    requestFingerprint: request?.fingerprint ?? null,
    disruption: quote.disruption,
    createdAt: now,
    updatedAt: now,
  });
  if (paymentRef === null) await applyExtension(tx, amendment, now, actor);
  return amendment;
}

/**
 * Moves the order's cover end to the amendment's, in the caller's transaction holding the
 * order's row lock: the amendment APPLIED, an audit entry (the certificate counts it as a
 * version) and `order.extended`.
 */
export async function applyExtension(
  tx: EntityManager,
  amendment: OrderAmendment,
  now: Date,
  actor: string,
): Promise<void> {
  const order = amendment.order;
  const previous = {
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    durationDays: order.durationDays,
  };
  order.coverageEndDate = amendment.coverageEndDate;
  order.durationDays = amendment.durationDays;
  amendment.status = 'APPLIED';
  amendment.appliedAt = now;
  recordAudit(tx, {
    actor,
    action: 'COVER_EXTENDED',
    order,
    at: now,
    details: {
      amendmentRef: amendment.amendmentRef,
      paymentRef: amendment.paymentRef ?? null,
      amountDue: amendment.amountDue,
      previous,
      ...(amendment.disruption ? { disruption: disruptionNamed(amendment.disruption) } : {}),
      current: {
        coverageStartDate: order.coverageStartDate,
        coverageEndDate: order.coverageEndDate,
        durationDays: order.durationDays,
      },
    },
  });
  await recordOrderExtendedEvent(tx, order, amendment, now);
}

/** A disruption as an audit entry names it, for the certificate's version line (decision record 0102). */
const disruptionNamed = (disruption: Disruption) => ({ disruptionId: disruption.disruptionRef, area: disruption.area });

/** What became of an extension's top-up when it was captured. */
export type TopUpSettlement = 'APPLIED' | 'NOT_APPLIED';

/**
 * The extension a captured payment is the top-up of, if it is one (by payment reference). Used
 * by the payment settlement, which holds the order's row lock.
 */
export function extensionOfTopUp(tx: EntityManager, paymentRef: string): Promise<OrderAmendment | null> {
  return tx.findOne(OrderAmendment, { paymentRef }, { populate: ['order'] });
}

/**
 * Every extension a payment is the top-up of: one for a single order's, one per member for a
 * group's (decision record 0108); none for a payment that is not a top-up.
 */
export function extensionsOfTopUp(tx: EntityManager, paymentRef: string): Promise<OrderAmendment[]> {
  return tx.find(OrderAmendment, { paymentRef }, { populate: ['order'] });
}

/**
 * A top-up captured at `now`, with what it charged each extension it pays: all of them applied
 * when each still awaits it, its order is paid, the share is its amount due and the current cover
 * has not ended (Nepal date of the capture); otherwise none is (NOT_APPLIED), and the settlement
 * refunds the money as a late capture (decision record 0099). A group's one top-up is applied
 * whole or not at all (decision record 0108).
 */
export async function settleTopUp(
  tx: EntityManager,
  shares: readonly { amendment: OrderAmendment; charged: Minor }[],
  now: Date,
): Promise<{ outcome: TopUpSettlement; reason?: string }> {
  const reason = shares.map(({ amendment, charged }) => notApplicableBecause(amendment, charged, now)).find(Boolean);
  if (reason) {
    for (const { amendment } of shares) if (amendment.status === 'AWAITING_PAYMENT') amendment.status = 'NOT_APPLIED';
    return { outcome: 'NOT_APPLIED', reason };
  }
  for (const { amendment } of shares) await applyExtension(tx, amendment, now, 'payment-settlement');
  return { outcome: 'APPLIED' };
}

function notApplicableBecause(amendment: OrderAmendment, charged: Minor, now: Date): string | null {
  const order = amendment.order;
  return amendment.status !== 'AWAITING_PAYMENT'
    ? `EXTENSION_${amendment.status}`
    : order.status !== OrderStatus.Paid
      ? `ORDER_${order.status}`
      : charged !== amendment.amountDue
        ? 'EXTENSION_REPRICED'
        : businessToday(now) > order.coverageEndDate
          ? 'COVER_ENDED'
          : null;
}

/** An extension whose top-up ended unpaid (failed, cancelled, expired) expires: the order may be extended anew. */
export function expireUnpaidExtension(amendment: OrderAmendment): void {
  if (amendment.status === 'AWAITING_PAYMENT') amendment.status = 'EXPIRED';
}

/**
 * The extensions awaiting this top-up expire with its checkout (decision record 0099; every
 * member's for a group's, 0108): called where a payment attempt ends unpaid (the gateway's word,
 * or its local close), in that transaction. Nothing for an attempt that is not a top-up.
 */
export async function expireTopUpExtension(tx: EntityManager, paymentRef: string): Promise<void> {
  const amendments = await tx.find(OrderAmendment, { paymentRef, status: 'AWAITING_PAYMENT' });
  for (const amendment of amendments) expireUnpaidExtension(amendment);
}

/** The order's extension made under this Idempotency-Key, if any. */
export function extensionByKey(
  tx: EntityManager,
  order: Pick<Order, 'id'>,
  idempotencyKey: string,
): Promise<OrderAmendment | null> {
  return tx.findOne(
    OrderAmendment,
    { order: order.id, idempotencyKey: idempotencyKey.toLowerCase() },
    { populate: ['order', 'disruption'] },
  );
}
