import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/http/request-scope';
import { conflict, notFound } from '../../kernel/errors';
import type { Schemas } from '../../kernel/http/wire';
import { checkoutView } from './checkout-view';
import { PaymentAttempt } from './entities/payment-attempt';
import { closeWithGateway } from './open-attempts';
import { handleGatewayCallback } from './payment-callback';
import { gatewayOfAttempt, type PaymentDeps } from './payment-deps';
import { attemptEndedBecause } from './rules/payment-attempt';
import { decideAtSandboxGateway, type CustomerChoice } from './providers/sandbox/sandbox-decision';
import { SandboxGateway } from './providers/sandbox/sandbox-gateway';

export type SandboxPaymentOutcome = Schemas['SandboxPaymentOutcome'];

/** What the customer's choice is at the sandbox gateway: the test instruments' decisions (test-instruments.ts). */
function choiceOf(outcome: Exclude<SandboxPaymentOutcome, 'ABANDONED'>, gateway: SandboxGateway): CustomerChoice {
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
 * abandoned checkout does, by the expiry close through the gateway. Answers the order whose
 * payment status tells the result (a group payment's first order).
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
  if (!attempt || !reported) throw notFound(`Payment ${paymentRef} not found`);
  const gateway = attempt.gateway === 'cash' ? undefined : gatewayOfAttempt(deps, attempt);
  if (!(gateway instanceof SandboxGateway)) {
    throw conflict(
      `Payment ${paymentRef} was taken by ${attempt.provider ?? attempt.gateway}, not by the sandbox gateway`,
    ).coded('SANDBOX_PROVIDER_REQUIRED');
  }
  const view = await checkoutView(em, paymentRef);
  if (!view?.open) throw alreadyFinal(attempt, reported);
  if (outcome === 'ABANDONED') {
    await closeWithGateway(em, attempt.id, 'EXPIRED', deps);
    return reported;
  }
  const decided = await decideAtSandboxGateway(em, gateway, view, choiceOf(outcome, gateway));
  if (!decided.decided)
    throw conflict(
      `Payment ${paymentRef} was already decided at the gateway (${decided.decision?.status ?? 'voided'}): read GET /orders/${reported}/payment-status for the outcome; to test another one, start a new payment with a new Idempotency-Key`,
    ).coded('PAYMENT_ALREADY_FINAL');
  await handleGatewayCallback(em, { gateway: gateway.name, ...decided.callback }, deps);
  return reported;
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
