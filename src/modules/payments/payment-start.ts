import type { Schemas } from '../../kernel/http/wire';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Minor } from '../../kernel/money';
import { nextReferenceMillis, paymentReference } from './rules/payment-reference';
import { payRequestFingerprint, type PayRequestFacts } from './rules/payment-request';
import { attemptEndedBecause, type AttemptStatus } from './rules/payment-attempt';
import { returnUrlProblem } from './rules/return-url';
import { Order, OrderStatus, SettlementType } from '../orders/entities/order';
import type { OrderGroup } from '../orders/entities/order-group';
import { PaymentAttempt, type GatewayName } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import { invalid, conflict, invalidField } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { resolveGroup, resolveOrder, type ClosedAttempt } from '../orders';
import { gatewayOf, gatewayOfAttempt, type PaymentDeps } from './payment-deps';
import { assertNoOpenAttempts, withOpenAttemptsClosed } from './open-attempts';
import { UNIQUE, violatesUnique } from '../../kernel/db/unique-violation';
import { present } from '../../kernel/narrow';
import { coverStartPassed, paymentDeadlineRefusal } from './rules/payment-deadline';
import { businessToday } from '../../kernel/business-today';

type PayInput = Schemas['PayRequest'];

/** A started (or resumed) attempt, as the pay response shows it. */
export interface StartedPayment {
  paymentUrl: string;
  gateway: GatewayName;
  paymentRef: string;
  amount: Minor;
  currency: string;
  expiresAt: Date;
  /** The attempt's status as answered: INITIATED for a payable checkout; a replay answers its attempt's current one. */
  status: AttemptStatus;
  /** Whether an earlier request with the same Idempotency-Key started this attempt. */
  replayed: boolean;
  /** Group pay only: the group's pending orders the attempt leaves out, with why. */
  leftOut?: LeftOutOrder[];
}

/** A pending order of a group that its group payment does not cover: its cover started before today. */
export interface LeftOutOrder {
  orderRef: string;
  reason: 'COVER_STARTED';
  coverageStartDate: string;
}

/**
 * POST /orders/{orderRef}/pay: one transaction that either resumes the attempt an
 * Idempotency-Key already made, or supersedes the order's open attempt and starts a new one for
 * the order's current total.
 */
export async function startOrderPayment(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: PayInput,
  idempotencyKey: string,
  deps: PaymentDeps,
): Promise<StartedPayment> {
  checkReturnUrl(input, deps);
  let replayed = false;
  const attempt = await withIdempotency(em, principal, idempotencyKey, deps, async (tx, replay, superseded) => {
    const { order } = await resolveOrder(tx, principal, identifier, {
      intent: 'ACT',
      lockForUpdate: true,
      populate: [],
    });
    const facts: PayRequestFacts<GatewayName> = {
      target: { kind: 'ORDER', id: order.id },
      gateway: input.gateway,
      returnUrl: input.returnUrl,
      customerMobile: input.customerMobile,
    };
    const previous = await replay(facts);
    replayed = !!previous;
    if (previous) return previous;
    assertPayable(order, businessToday());
    const last = await tx.findOne(
      PaymentAttempt,
      { scope: 'ORDER', orders: { order: order.id } },
      { orderBy: { createdAt: 'desc' } },
    );
    return createAttempt(
      tx,
      {
        principal,
        facts,
        ownerRef: order.orderRef,
        orders: [order],
        lastCreatedAt: last?.createdAt,
        idempotencyKey,
        superseded,
      },
      deps,
    );
  });
  return { ...(await withCheckout(em, attempt, deps)), replayed };
}

/** POST /orders/groups/{groupRef}/pay: one attempt for every PENDING online order of the group. */
export async function startGroupPayment(
  em: EntityManager,
  principal: Principal,
  groupRef: string,
  input: PayInput,
  idempotencyKey: string,
  deps: PaymentDeps,
): Promise<StartedPayment> {
  checkReturnUrl(input, deps);
  let leftOut: LeftOutOrder[] = [];
  let replayed = false;
  const attempt = await withIdempotency(em, principal, idempotencyKey, deps, async (tx, replay, superseded) => {
    const { group, orders } = await resolveGroup(tx, principal, groupRef, { lockForUpdate: true });
    const facts: PayRequestFacts<GatewayName> = {
      target: { kind: 'GROUP', id: group.id },
      gateway: input.gateway,
      returnUrl: input.returnUrl,
      customerMobile: input.customerMobile,
    };
    const pending = orders.filter(
      (order) => order.status === OrderStatus.Pending && order.settlementType === SettlementType.Online,
    );
    const today = businessToday();
    const previous = await replay(facts);
    replayed = !!previous;
    if (previous) {
      // A replay answers as the first request did: the pending orders its attempt does not cover were left out.
      const covered = new Set(
        (await tx.find(PaymentAttemptOrder, { attempt: previous.id }, { fields: ['order'] })).map(
          (line) => line.order.id,
        ),
      );
      leftOut = pending.filter((order) => !covered.has(order.id)).map(leftOutOrder);
      return previous;
    }
    const payable = pending.filter((order) => !coverStartPassed(order, today));
    leftOut = pending.filter((order) => coverStartPassed(order, today)).map(leftOutOrder);
    if (payable.length === 0) {
      const refusal = pending.map((order) => paymentDeadlineRefusal(order, today)).find((text) => text !== null);
      throw refusal
        ? invalid(`Group ${group.groupRef} has no order left that can be paid: ${refusal}`).coded('COVER_STARTED')
        : invalid(`Group ${group.groupRef} has no pending order to pay`).coded('ORDER_NOT_PENDING');
    }
    const last = await tx.findOne(
      PaymentAttempt,
      { scope: 'GROUP', group: group.id },
      { orderBy: { createdAt: 'desc' } },
    );
    return createAttempt(
      tx,
      {
        principal,
        facts,
        ownerRef: group.groupRef,
        orders: payable,
        lastCreatedAt: last?.createdAt,
        idempotencyKey,
        superseded,
        group,
      },
      deps,
    );
  });
  return { ...(await withCheckout(em, attempt, deps)), leftOut, replayed };
}

const leftOutOrder = (order: Order): LeftOutOrder => ({
  orderRef: order.orderRef,
  reason: 'COVER_STARTED',
  coverageStartDate: order.coverageStartDate,
});

export function checkReturnUrl(input: Pick<PayInput, 'returnUrl'>, deps: PaymentDeps): void {
  if (input.returnUrl === undefined) return;
  const problem = returnUrlProblem(input.returnUrl, deps.payments.allowHttpReturnUrl);
  if (problem) throw invalidField('returnUrl', problem);
}

function assertPayable(order: Order, today: string): void {
  if (order.status !== OrderStatus.Pending) {
    throw invalid(`Order ${order.orderRef} is already ${order.status} and cannot be paid again`).coded(
      order.status === OrderStatus.Cancelled ? 'ORDER_ALREADY_CANCELLED' : 'ORDER_NOT_PENDING',
    );
  }
  if (order.settlementType === SettlementType.Cash) {
    throw invalid(`Order ${order.orderRef} is settled in cash; the operator records the payment`);
  }
  const late = paymentDeadlineRefusal(order, today);
  if (late) throw invalid(late).coded('COVER_STARTED');
}

export type Replay = (facts: PayRequestFacts) => Promise<PaymentAttempt | undefined>;

/**
 * Runs a pay request under its Idempotency-Key, with the attempt a new key supersedes put to its
 * gateway first (withOpenAttemptsClosed): if the customer had paid it, the order is PAID and this
 * request answers as for a paid order. A transaction-scoped advisory lock on
 * (company, key) makes concurrent requests with one key, from any number of server processes,
 * run one after another; the first creates the attempt, the rest find it (`replay`) and return it
 * unchanged, or get a 409 when they asked for something else. The unique constraint on
 * (company_id, idempotency_key) stays the last word; should it ever fire, the request is run once
 * more and then finds the winner's attempt.
 */
export async function withIdempotency<T>(
  em: EntityManager,
  principal: Principal,
  idempotencyKey: string,
  deps: PaymentDeps,
  work: (tx: EntityManager, replay: Replay, superseded: readonly ClosedAttempt[]) => Promise<T>,
): Promise<T> {
  const key = idempotencyKey.toLowerCase();
  const run = (superseded: readonly ClosedAttempt[]) =>
    em.fork().transactional(async (tx) => {
      await tx
        .getConnection()
        .execute(
          `select pg_advisory_xact_lock(hashtextextended(?, 0))`,
          [`pay:${principal.companyId}:${key}`],
          'all',
          tx.getTransactionContext(),
        );
      const replay: Replay = async (facts) => {
        const existing = await tx.findOne(PaymentAttempt, { company: principal.companyId, idempotencyKey: key });
        if (!existing) return undefined;
        // A cash record's fingerprint names gateway `cash`, which no pay request can carry.
        if (existing.requestFingerprint !== payRequestFingerprint(facts)) {
          throw conflict(
            'This Idempotency-Key was already used for a different payment request; use a new key for a new request',
          ).coded('IDEMPOTENCY_KEY_REUSED');
        }
        // The key's checkout takes no payment any more: say so rather than hand back its dead page.
        const ended = attemptEndedBecause(existing);
        if (ended)
          throw conflict(
            `Payment ${existing.paymentRef}, which this Idempotency-Key started, ended ${existing.status} (${ended}): its paymentUrl takes no payment. Start a new payment with a new Idempotency-Key`,
          ).coded('PAYMENT_ATTEMPT_ENDED');
        return existing;
      };
      return work(tx, replay, superseded);
    });
  return withOpenAttemptsClosed(em, deps, 'SUPERSEDED', async (superseded) => {
    try {
      return await run(superseded);
    } catch (error) {
      // Another request with the same key (or, rarely, the same millisecond) committed first: replay it.
      if (violatesUnique(error, [UNIQUE.attemptIdempotencyKey, UNIQUE.attemptPaymentRef])) return run(superseded);
      throw error;
    }
  });
}

/** What a new attempt is made of: who pays for which orders, under which key, replacing which open attempts. */
export interface NewAttempt {
  principal: Principal;
  facts: PayRequestFacts<GatewayName>;
  /** The order or group reference the payment reference starts with. */
  ownerRef: string;
  orders: Order[];
  /** The owner's latest attempt: a new reference's milliseconds must come after it. */
  lastCreatedAt: Date | undefined;
  idempotencyKey: string;
  /** Open attempts this one replaces (closed by withOpenAttemptsClosed). */
  superseded: readonly ClosedAttempt[];
  group?: OrderGroup;
  /** An extension's top-up (decision record 0099): the one order's share is this, not its total. */
  topUp?: Minor;
  /** A group's extension top-up (decision record 0108): each member's share, by order id. */
  topUps?: ReadonlyMap<string, Minor>;
}

export async function createAttempt(
  tx: EntityManager,
  { principal, facts, ownerRef, orders, lastCreatedAt, idempotencyKey, superseded, group, topUp, topUps }: NewAttempt,
  deps: PaymentDeps,
): Promise<PaymentAttempt> {
  const gateway = gatewayOf(deps, facts.gateway);
  await assertNoOpenAttempts(
    tx,
    orders.map((order) => order.id),
  );
  const shareOf = (order: Order): Minor => topUps?.get(order.id) ?? topUp ?? order.totalAmount;
  const millis = nextReferenceMillis(Date.now(), lastCreatedAt?.getTime());
  const createdAt = new Date(millis);
  const paymentRef = paymentReference(ownerRef, millis);
  if (superseded.length > 0)
    await tx.nativeUpdate(
      PaymentAttempt,
      { id: { $in: superseded.map((closed) => closed.id) } },
      { supersededBy: paymentRef },
    );

  const attempt = tx.create(PaymentAttempt, {
    paymentRef,
    company: principal.companyId,
    scope: group ? 'GROUP' : 'ORDER',
    group,
    gateway: gateway.name,
    provider: gateway.provider,
    amount: orders.reduce((sum, order) => sum + shareOf(order), 0),
    currency: present(orders[0], 'an order of the attempt').currency,
    returnUrl: facts.returnUrl,
    customerMobile: facts.customerMobile,
    idempotencyKey: idempotencyKey.toLowerCase(),
    requestFingerprint: payRequestFingerprint(facts),
    expiresAt: new Date(millis + Math.max(deps.payments.attemptTtlMinutes, gateway.checkoutMinutes ?? 0) * 60_000),
    createdAt,
    updatedAt: createdAt,
  });
  for (const order of orders) tx.create(PaymentAttemptOrder, { attempt, order, amount: shareOf(order) });
  await tx.flush();
  deps.logger.info({ paymentRef, gateway: gateway.name, orders: orders.length }, 'payment attempt started');
  return attempt;
}

/**
 * The attempt's checkout page, prepared by its provider (Khalti: initiate) after the attempt's
 * transaction committed, because a remote call must not hold the order's lock. It is asked once
 * and stored once: a retry with the same key answers the stored page; requests racing on one key
 * may both ask, the first to store wins and the others answer its page, so one key never hands
 * out two pages. A provider that does not answer leaves the attempt without a page (pay answers
 * 502/503; the same key asks again); the attempt cannot be paid until it has one.
 */
export async function withCheckout(
  em: EntityManager,
  attempt: PaymentAttempt,
  deps: PaymentDeps,
): Promise<Omit<StartedPayment, 'replayed'>> {
  if (attempt.checkoutUrl) return startedPayment(attempt, attempt.checkoutUrl, deps);
  if (attempt.status !== 'INITIATED') throw closedBeforeCheckout();
  const gateway = gatewayOfAttempt(deps, attempt);
  const started = await gateway.start({
    paymentRef: attempt.paymentRef,
    amount: attempt.amount,
    currency: attempt.currency,
    expiresAt: attempt.expiresAt,
    customerMobile: attempt.customerMobile,
  });
  // A page prepared late (a retry with the same key after the provider did not answer) takes money late too: the attempt stays open as long.
  const expiresAt = started.expiresAt && started.expiresAt > attempt.expiresAt ? started.expiresAt : attempt.expiresAt;
  const stored = await em.fork().nativeUpdate(
    PaymentAttempt,
    { id: attempt.id, checkoutUrl: null, status: 'INITIATED' },
    {
      checkoutUrl: started.paymentUrl,
      expiresAt,
      ...(started.providerRef ? { providerRef: started.providerRef } : {}),
    },
  );
  if (stored === 1) {
    attempt.expiresAt = expiresAt;
    deps.logger.info(
      { paymentRef: attempt.paymentRef, gateway: gateway.name, provider: gateway.provider },
      'payment checkout prepared',
    );
    return startedPayment(attempt, started.paymentUrl, deps);
  }
  const current = await em.fork().findOneOrFail(PaymentAttempt, attempt.id);
  if (current.checkoutUrl) return startedPayment(current, current.checkoutUrl, deps);
  throw closedBeforeCheckout();
}

const closedBeforeCheckout = () =>
  conflict(
    'This payment attempt was closed before its checkout page was ready; start a new payment with a new Idempotency-Key',
  );

function startedPayment(
  attempt: PaymentAttempt,
  paymentUrl: string,
  deps: PaymentDeps,
): Omit<StartedPayment, 'replayed'> {
  return {
    status: attempt.status,
    paymentUrl,
    gateway: gatewayOfAttempt(deps, attempt).name,
    paymentRef: attempt.paymentRef,
    amount: attempt.amount,
    currency: attempt.currency,
    expiresAt: attempt.expiresAt,
  };
}
