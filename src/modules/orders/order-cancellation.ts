import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalid, type ErrorCode } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import type { PaymentAttempt } from '../payments/entities/payment-attempt';
import { lockSharesForRefunds, recordRefund, type RefundPorts } from '../refunds';
import type { Refund } from '../refunds/entities/refund';
import { cancellationRefunds, paidShares, termsOf, type PaidShare } from './cancellation-reads';
import { recordCancellation, type CancellationRecord } from './cancellation-record';
import { Order, OrderStatus } from './entities/order';
import { OrderCancellation } from './entities/order-cancellation';
import { findOrder, resolveOrder } from './order-lookup';
import { ORDER_PROMO_POPULATE } from './order-promo-columns';
import {
  cancellationFingerprint,
  splitCancellationRefund,
  type CancellationSettings,
  type Canceller,
  type PartnerCancellationReason,
} from './rules/cancellation';
import { businessToday } from '../../kernel/business-today';

/**
 * Cancel, and refund: the one cancellation of a partner's or an operator's request (decision
 * records 0062 and 0075), as steps in order:
 *
 *   1. read what is in the way, with no lock: the order's open checkouts;
 *   2. ask their gateways to stop taking money, with no lock held (a capture among the answers
 *      makes the order PAID, and it is then cancelled with a refund);
 *   3. one transaction: record the gateways' answers, lock the order, apply the one rule set,
 *      write the refund of a paid share (refunds) and the cancellation (the one writer);
 *      a checkout opened meanwhile sends the flow back to 1 (at most three rounds);
 *   4. after commit, start the refund (the executor makes it now).
 *
 * Orders calls payments (1-3, through CancellationPayments), promos (3, through PromoSlotRelease)
 * and refunds (3); none calls back.
 * The provider's reversal cancels through the same writer from inside its own transaction
 * (payments/provider-reversal.ts): it has no checkout to close and its refund is found, not sent.
 */

/**
 * What a cancellation needs of payments (payments builds on orders, so orders cannot import it):
 * made by payments' `cancellationPayments(deps)`, given through the request scope's services.
 */
export interface CancellationPayments {
  settings: CancellationSettings;
  /** Step 1: the open checkouts of these orders, read without locks. */
  openAttempts(em: EntityManager, orderIds: readonly string[]): Promise<PaymentAttempt[]>;
  /** Steps 2 and 3: the gateways' answers about the checkouts in the way, from asking to recording. */
  checkoutAnswers(): CheckoutAnswers;
  /** Step 3: the checkouts that could still take money for these orders, as the transaction sees them. */
  stillOpenAttempts(tx: EntityManager, orderIds: readonly string[]): Promise<PaymentAttempt[]>;
  /** How a refund of this gateway's payment starts: made by the executor, or MANUAL where the provider has no refund API. */
  refundStart(attempt: Pick<PaymentAttempt, 'gateway' | 'provider'>): 'EXECUTE' | 'MANUAL';
  /** Step 4: the executor makes the refund now rather than at its next pass. */
  kickRefunds(): void;
  /** Step 3: payments' writer of the refunded share, and the refunds counter, for recordRefund (decision record 0111). */
  refundPorts: RefundPorts;
}

/** A checkout closed for a change (the cancellation, a promo change, a newer attempt), as its audit entry names it. */
export type ClosedAttempt = Pick<PaymentAttempt, 'id' | 'paymentRef'>;

/** What recording the gateways' answers in a change's transaction did. */
export interface AnswersRecorded {
  /** The checkouts it closed. */
  closed: ClosedAttempt[];
  /** The orders of those checkouts, locked (FOR UPDATE) and read afresh in the change's transaction. */
  lockedOrderIds: string[];
}

/**
 * The gateways' answers about the checkouts in a change's way (made by payments' checkoutAnswers;
 * declared here, where the cancellation that lists these steps itself uses it).
 */
export interface CheckoutAnswers {
  /** Asks the gateways to stop taking money for these checkouts; no lock may be held. */
  ask(attempts: readonly PaymentAttempt[]): Promise<void>;
  /** In the transaction, before anything else is locked: the checkouts it closed and the orders it locked. */
  recordIn(tx: EntityManager): Promise<AnswersRecorded>;
  /** After the transaction: answers it did not keep are recorded on their own; the checkouts closed so. */
  afterTransaction(em: EntityManager, committed: boolean): Promise<ClosedAttempt[]>;
}

/**
 * What a cancellation needs of promos (promos builds on orders, so orders cannot import it): an
 * unpaid order's promo slots emptied and their codes' uses given back, in the cancellation's
 * transaction; answers the codes released. Promos' `releasePromoSlots`, wired by the composition
 * (decision record 0110).
 */
export type PromoSlotRelease = (tx: EntityManager, order: Order) => Promise<string[]>;

/** What the cancellation is given of the modules that build on orders. */
export interface CancellationPorts {
  payments: CancellationPayments;
  releasePromoSlots: PromoSlotRelease;
}

export interface CancellationInput {
  reason: PartnerCancellationReason;
  note?: string;
}

/** A cancelled order, as the cancellation answer and the order detail show it. */
export interface CancellationView {
  order: Order;
  cancellation: OrderCancellation;
  refund: Refund | null;
  /** The refunds of the order's extension top-ups, each through its own provider (decision record 0099). */
  topUpRefunds: Refund[];
  /** The order was unpaid when asked, and a checkout the customer had just paid made it PAID first. */
  paidWhileCancelling: boolean;
  /** The answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  /** For the operator: promo codes given back and checkouts closed. */
  releasedCodes: string[];
  closedPaymentRefs: string[];
}

/** Who asks for the cancellation of which order, and what they said. */
interface CancellationRequest {
  who: Canceller;
  identifier: string;
  /** Finds (and, in the transaction, locks) the order the caller may cancel. */
  find(em: EntityManager, lock: boolean): Promise<Order>;
  record: CancellationRecord;
  /** A partner's request: replayed under its Idempotency-Key. */
  idempotency?: { companyId: string; key: string; fingerprintOf(orderId: string): string };
}

/** A checkout may open between the read and the transaction this often before the caller is told to retry. */
const MAX_ROUNDS = 3;

/** POST /orders/{orderRef}/cancellation under its Idempotency-Key (a repeat answers the first result; another body, 409). */
export function cancelByPartner(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: CancellationInput,
  idempotencyKey: string,
  ports: CancellationPorts,
  now?: Date,
): Promise<CancellationView> {
  const key = idempotencyKey.toLowerCase();
  return runCancellation(
    em,
    {
      who: 'PARTNER',
      identifier,
      find: async (db, lock) =>
        (
          await resolveOrder(db, principal, identifier, {
            intent: 'ACT',
            lockForUpdate: lock,
            populate: lock ? [...ORDER_PROMO_POPULATE] : [],
          })
        ).order,
      record: {
        reason: input.reason,
        note: input.note ?? null,
        actor: `api:${principal.companyId}`,
        company: principal.companyId,
        idempotencyKey: key,
      },
      idempotency: {
        companyId: principal.companyId,
        key,
        fingerprintOf: (orderId) => cancellationFingerprint(orderId, input),
      },
    },
    ports,
    now,
  );
}

/**
 * `ops order cancel [--note]`: without a note an unpaid order only; with one a paid order too,
 * even once its cover has started (the refund follows the fee rule of its payment date).
 */
export function cancelByOperator(
  em: EntityManager,
  identifier: string,
  options: { actor: string; note?: string | null },
  ports: CancellationPorts,
  now?: Date,
): Promise<CancellationView> {
  return runCancellation(
    em,
    {
      who: options.note ? 'OPERATOR_WITH_NOTE' : 'OPERATOR',
      identifier,
      find: (db, lock) =>
        findOrder(db, identifier, { lockForUpdate: lock, populate: lock ? [...ORDER_PROMO_POPULATE] : [] }),
      record: { reason: 'OPERATOR', note: options.note ?? null, actor: options.actor },
    },
    ports,
    now,
  );
}

/** The steps of every request's cancellation, whoever asks (cancelByPartner, cancelByOperator). */
async function runCancellation(
  em: EntityManager,
  request: CancellationRequest,
  ports: CancellationPorts,
  now: Date | undefined,
): Promise<CancellationView> {
  const { payments } = ports;
  const requestedAt = now ?? new Date();
  const answers = payments.checkoutAnswers();
  const closedBefore: ClosedAttempt[] = [];
  for (let round = 1; ; round += 1) {
    // 1. What is in the way, read with no lock (nothing, once the key was used or the order is not pending).
    const seen = await request.find(em.fork(), false);
    // A paid order's open checkout is an extension's top-up (decision record 0099): closed too, its extension expires.
    const inTheWay =
      (seen.status === OrderStatus.Pending || seen.status === OrderStatus.Paid) && !(await keyUsed(em, request))
        ? await payments.openAttempts(em.fork(), [seen.id])
        : [];

    // 2. Their gateways are asked to stop taking money, with no lock held.
    await answers.ask(inTheWay);

    // 3. One transaction: the gateways' answers, the order locked, the rules, the refund and the cancellation.
    let done: CancellationView | 'IN_THE_WAY';
    try {
      done = await em
        .fork()
        .transactional((tx) =>
          cancelInTransaction(tx, request, seen.id, answers, closedBefore, ports, { requestedAt, now }),
        );
      closedBefore.push(...(await answers.afterTransaction(em, true)));
    } catch (error) {
      await answers.afterTransaction(em, false);
      throw error;
    }
    if (done !== 'IN_THE_WAY') {
      // 4. After commit: the refund is made now.
      if (done.refund && !done.replayed) payments.kickRefunds();
      return done;
    }
    if (round === MAX_ROUNDS)
      throw conflict('A payment for this order is being started or settled at this moment; try again shortly').coded(
        'PAYMENT_IN_PROGRESS',
      );
  }
}

async function keyUsed(em: EntityManager, { idempotency }: CancellationRequest): Promise<boolean> {
  return (
    !!idempotency &&
    (await em.fork().count(OrderCancellation, { company: idempotency.companyId, idempotencyKey: idempotency.key })) > 0
  );
}

async function cancelInTransaction(
  tx: EntityManager,
  request: CancellationRequest,
  seenOrderId: string,
  answers: CheckoutAnswers,
  closedBefore: readonly ClosedAttempt[],
  { payments, releasePromoSlots }: CancellationPorts,
  times: { requestedAt: Date; now: Date | undefined },
): Promise<CancellationView | 'IN_THE_WAY'> {
  const { idempotency } = request;
  // Requests with one key, from any number of processes, run one after another.
  if (idempotency)
    await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [
      `cancel:${idempotency.companyId}:${idempotency.key}`,
    ]);
  // The answers lock the checkouts' orders first (settlement's lock order), this one among them.
  const recorded = await answers.recordIn(tx);
  const order = recorded.lockedOrderIds.includes(seenOrderId)
    ? await lockedOrder(tx, seenOrderId)
    : await request.find(tx, true);

  if (idempotency) {
    const fingerprint = idempotency.fingerprintOf(order.id);
    const previous = await tx.findOne(OrderCancellation, {
      company: idempotency.companyId,
      idempotencyKey: idempotency.key,
    });
    if (previous && previous.requestFingerprint !== fingerprint) {
      throw conflict(
        'This Idempotency-Key was already used for a different cancellation request; use a new key for a new request',
      ).coded('IDEMPOTENCY_KEY_REUSED');
    }
    if (previous) {
      const [refund = null, ...topUpRefunds] = await cancellationRefunds(tx, order.id);
      return {
        order,
        cancellation: previous,
        refund,
        topUpRefunds,
        paidWhileCancelling: false,
        replayed: true,
        releasedCodes: [],
        closedPaymentRefs: [],
      };
    }
    request.record.fingerprint = fingerprint;
  }

  // The cancellation happens when its transaction holds the order, after whatever committed before it.
  const now = times.now ?? new Date();
  const existing =
    order.status === OrderStatus.Cancelled ? await tx.findOne(OrderCancellation, { order: order.id }) : null;
  // Each share's refund lock before its refunds are read: what is left of it is this cancellation's to refund (decision 0091).
  // Every payment of the order: its own and each extension's top-up (decision record 0099).
  const paid = order.status === OrderStatus.Cancelled ? [] : await paidSharesLocked(tx, order.id);
  const terms = await termsOf(tx, order, payments.settings, now, request.who, existing?.cancelledAt);
  if (!terms.cancellable) {
    const message = terms.notCancellableReason ?? `Order ${order.orderRef} cannot be cancelled`;
    throw request.who === 'PARTNER'
      ? invalid(message).coded(notCancellableCode(order, now))
      : new OperatorRefusal(message);
  }

  // A checkout opened since step 1 (for a paid order, the top-up of an extension asked meanwhile):
  // back to step 1, which closes it (what this transaction recorded stays).
  if ((await payments.stillOpenAttempts(tx, [order.id])).length > 0) return 'IN_THE_WAY';

  const totalBefore = order.totalAmount;
  let releasedCodes: string[] = [];
  const refunds: Refund[] = [];
  let paymentRef: string | null = null;
  if (terms.rule === 'UNPAID') {
    releasedCodes = await releasePromoSlots(tx, order);
  } else {
    paymentRef = paid[0]?.attempt.paymentRef ?? null;
    const split = splitCancellationRefund(
      paid.map((share) => share.amount - share.refundedBefore),
      terms.cancellationFee,
    );
    for (const [index, share] of paid.entries()) {
      // A share the provider gave back in full already still gets its refund record (of nothing): the share then reads REFUNDED.
      if (share.amount <= 0) continue;
      const part = split[index]!;
      const byOperator = terms.refundByOperator && share.attempt.providerReversal === 'PARTIAL';
      refunds.push(
        await recordRefund(
          tx,
          {
            order,
            attempt: share.attempt,
            cause: 'CANCELLATION',
            amount: part.amount,
            fee: part.fee,
            actor: request.record.actor,
            at: now,
            ...(byOperator
              ? { start: 'MANUAL', why: terms.refundByOperator ?? undefined }
              : { start: payments.refundStart(share.attempt) }),
          },
          payments.refundPorts,
        ),
      );
    }
  }
  const [refund = null, ...topUpRefunds] = refunds;
  const { cancellation, closedPaymentRefs } = await recordCancellation(
    tx,
    order,
    request.record,
    {
      rule: terms.rule,
      refundAmount: terms.refundAmount,
      cancellationFee: terms.cancellationFee,
      refund,
      topUpRefunds,
      paymentRef,
      totalBefore,
      releasedCodes,
      closedPaymentRefs: [...closedBefore, ...recorded.closed].map((attempt) => attempt.paymentRef),
    },
    now,
  );
  await tx.flush();
  // A checkout the customer paid while this request closed it: settled (PAID) just now, then cancelled with its refund.
  const paidWhileCancelling = !!order.paidAt && order.paidAt.getTime() >= times.requestedAt.getTime();
  return {
    order,
    cancellation,
    refund,
    topUpRefunds,
    paidWhileCancelling,
    replayed: false,
    releasedCodes,
    closedPaymentRefs,
  };
}

/** The order's paid shares under their refund locks (lockSharesForRefunds), read after the locks are held. */
async function paidSharesLocked(tx: EntityManager, orderId: string): Promise<PaidShare[]> {
  const seen = await paidShares(tx, orderId);
  for (const share of seen) await lockSharesForRefunds(tx, share.attempt.id, [orderId]);
  return seen.length > 0 ? paidShares(tx, orderId) : seen;
}

/** An order this transaction has locked and read already: taken from its identity map, with the promo slots' owners. */
async function lockedOrder(tx: EntityManager, orderId: string): Promise<Order> {
  const order = await tx.findOneOrFail(Order, orderId);
  await tx.populate(order, [...ORDER_PROMO_POPULATE]);
  return order;
}

/** The code a partner branches on when its cancellation is refused: cancelled already, cover started, or another rule. */
function notCancellableCode(order: Order, now: Date): ErrorCode {
  if (order.status === OrderStatus.Cancelled) return 'ORDER_ALREADY_CANCELLED';
  return businessToday(now) >= order.coverageStartDate ? 'COVER_STARTED' : 'INVALID_REQUEST';
}
