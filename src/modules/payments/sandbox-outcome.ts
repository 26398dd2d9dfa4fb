import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/http/request-scope';
import { conflict, notFound } from '../../kernel/errors';
import type { Schemas } from '../../kernel/http/wire';
import { checkoutView } from './checkout-view';
import { PaymentAttempt } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import type { Minor } from '../../kernel/money';
import { closeWithGateway } from './open-attempts';
import { handleGatewayCallback } from './payment-callback';
import { gatewayOfAttempt, type PaymentDeps } from './payment-deps';
import { attemptEndedBecause } from './rules/payment-attempt';
import { decideAtSandboxGateway, type CustomerChoice } from './providers/sandbox/sandbox-decision';
import { SandboxGateway } from './providers/sandbox/sandbox-gateway';
import { findSandboxDecision, recordSandboxDecision } from './providers/sandbox/sandbox-ledger';
import { isReference } from '../orders';

export type SandboxPaymentOutcome = Schemas['SandboxPaymentOutcome'];

/** What the customer's choice is at the sandbox gateway: the test instruments' decisions (test-instruments.ts). */
function choiceOf(
  outcome: Exclude<SandboxPaymentOutcome, 'ABANDONED' | 'PENDING'>,
  gateway: SandboxGateway,
): CustomerChoice {
  switch (outcome) {
    case 'CAPTURED':
      return { status: 'SUCCESS', instrument: 'sandbox helper' };
    case 'DECLINED':
      return { status: 'FAILED', reason: gateway.name === 'card_gateway' ? 'CARD_DECLINED' : 'WALLET_DECLINED' };
    case 'INSUFFICIENT_FUNDS':
      return { status: 'FAILED', reason: 'INSUFFICIENT_FUNDS' };
    case 'CANCELLED_BY_CUSTOMER':
      return { status: 'CANCELLED', reason: 'CANCELLED_BY_CUSTOMER' };
  }
}

/**
 * POST /sandbox/payments/{paymentRef}/outcome: the partner's test plays the customer. The
 * sandbox gateway records its decision and signs its callback, which the service then takes
 * through handleGatewayCallback exactly as after the hosted page's form (signature, age, amount,
 * settlement under its locks, policy number, events). An abandoned checkout ends the way every
 * abandoned checkout does, by the expiry close through the gateway. `PENDING` is the gateway
 * that took the submit and has not decided (decision record 0090): its lookups answer undecided
 * and a void cannot take its place, so the attempt stays INITIATED (and, once its checkout
 * closes, watched like any undecided one) until a later call here decides it, even after the
 * close (then taken as any word a provider gives after the close). Answers the order whose payment status tells the result
 * (a group payment's first order). A group or order reference is not a payment's: a 404 that
 * says which reference to pass.
 */
export async function decideSandboxPayment(
  em: EntityManager,
  principal: Principal,
  paymentRef: string,
  outcome: SandboxPaymentOutcome,
  deps: PaymentDeps,
): Promise<string> {
  const attempt = await em.findOne(
    PaymentAttempt,
    { paymentRef, company: principal.companyId },
    { populate: ['orders.order'] },
  );
  const reported = attempt?.orders
    .getItems()
    .map((line) => line.order.orderRef)
    .sort()[0];
  if (!attempt || !reported) throw notFound(notFoundMessage(paymentRef));
  const gateway = attempt.gateway === 'cash' ? undefined : gatewayOfAttempt(deps, attempt);
  if (!(gateway instanceof SandboxGateway)) {
    throw conflict(
      `Payment ${paymentRef} was taken by ${attempt.provider ?? attempt.gateway}, not by the sandbox gateway`,
    ).coded('SANDBOX_PROVIDER_REQUIRED');
  }
  const view = await checkoutView(em, paymentRef);
  const standing = await findSandboxDecision(em.fork(), paymentRef);
  const pendingAtGateway = standing?.status === 'PENDING';
  if (outcome === 'PENDING' && pendingAtGateway) return reported;
  if (!view || (!view.open && !(pendingAtGateway && outcome !== 'ABANDONED'))) throw alreadyFinal(attempt, reported);
  if (outcome === 'ABANDONED') {
    await closeWithGateway(em, attempt.id, 'EXPIRED', deps);
    return reported;
  }
  if (outcome === 'PENDING') {
    const { amount, currency } = view;
    const held = await recordSandboxDecision(em, {
      paymentRef,
      gateway: gateway.name,
      status: 'PENDING',
      amount,
      currency,
    });
    if (!held)
      throw conflict(`Payment ${paymentRef} was already decided at the gateway`).coded('PAYMENT_ALREADY_FINAL');
    return reported;
  }
  const choice = { ...choiceOf(outcome, gateway), settlesPending: pendingAtGateway };
  const decided = await decideAtSandboxGateway(em, gateway, view, choice);
  if (!decided.decided)
    throw conflict(
      `Payment ${paymentRef} was already decided at the gateway (${decided.decision?.status ?? 'voided'}): read GET /orders/${reported}/payment-status for the outcome; to test another one, start a new payment with a new Idempotency-Key`,
    ).coded('PAYMENT_ALREADY_FINAL');
  await handleGatewayCallback(em, { gateway: gateway.name, ...decided.callback }, deps);
  return reported;
}

/** An order's or a group's own reference names no payment: the answer says which one to pass. */
function notFoundMessage(reference: string): string {
  const ref = reference.toUpperCase();
  if (isReference('GRP', ref))
    return `Payment ${reference} not found: ${ref} is a group reference; pass the paymentRef that POST /orders/groups/${ref}/pay answered (it decides the whole group's payment)`;
  if (isReference('ORD', ref))
    return `Payment ${reference} not found: ${ref} is an order reference; pass the paymentRef that POST /orders/${ref}/pay answered`;
  return `Payment ${reference} not found`;
}

/** An order's latest payment as a payment event about it carries it (POST /sandbox/events), or null when it has none. */
export async function latestPaymentFacts(
  em: EntityManager,
  orderId: string,
): Promise<{
  paymentRef: string;
  paymentStatus: string;
  paymentMethod: string;
  paymentAmount: Minor;
  share: Minor;
  reason: string | null;
} | null> {
  const line = await em.findOne(
    PaymentAttemptOrder,
    { order: orderId },
    { populate: ['attempt'], orderBy: { attempt: { createdAt: 'desc' } } },
  );
  if (!line) return null;
  const { attempt } = line;
  return {
    paymentRef: attempt.paymentRef,
    paymentStatus: attempt.status,
    paymentMethod: attempt.gateway.toUpperCase(),
    paymentAmount: attempt.amount,
    share: line.amount,
    reason: attempt.failureReason ?? attempt.closedReason ?? null,
  };
}

/** A payment the helper can no longer decide, said with why and what to do instead. */
function alreadyFinal(attempt: PaymentAttempt, orderRef: string) {
  const status = attempt.status === 'INITIATED' ? 'EXPIRED' : attempt.status;
  const why = attemptEndedBecause({ ...attempt, status });
  const next = why
    ? `decide a new payment instead (POST /orders/${orderRef}/pay with a new Idempotency-Key, or the newer payment named)`
    : `its money is taken; read GET /orders/${orderRef}/payment-status`;
  return conflict(`Payment ${attempt.paymentRef} is already ${status}${why ? ` (${why})` : ''}: ${next}`).coded(
    'PAYMENT_ALREADY_FINAL',
  );
}
