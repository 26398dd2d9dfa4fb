import type { EntityManager } from '@mikro-orm/postgresql';
import { PaymentAttempt } from './entities/payment-attempt';
import { claimedPaymentRef } from './providers/callback-signature';
import {
  InvalidCallbackError,
  ProviderUnavailableError,
  type GatewayLookup,
  type GatewayName,
  type ReturnQuery,
} from './providers/gateway';
import { DomainError } from '../../kernel/errors';
import type { AttemptStatus } from './rules/payment-attempt';
import { gatewayOfAttempt, type PaymentDeps } from './payment-deps';
import { lockAttemptForSettlement, recordGatewayWord, reportMatches } from './settlement';

/** How far a gateway's clock may run ahead of ours. */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface CallbackResult {
  paymentRef: string;
  status: AttemptStatus;
  returnUrl?: string;
}

/**
 * A refused return: the same 400 ("Invalid payment callback") as any invalid input, carrying the
 * attempt when the reference named a known one, so the customer's page can link back to the partner.
 */
export class ReturnRefusedError extends DomainError {
  constructor(readonly attempt?: { paymentRef: string; returnUrl?: string }) {
    super('invalid', 'Invalid payment callback');
    this.name = 'ReturnRefusedError';
  }
}

/** A browser return: the gateway and payment it names, and everything the provider appended. */
export interface GatewayReturn {
  gateway: GatewayName;
  paymentRef: string;
  query: ReturnQuery;
}

/**
 * GET /api/external/payment/response (the sandbox's signed callback): the payment it is about is
 * read from the payload, unverified; handleGatewayReturn verifies everything before anything changes.
 */
export function handleGatewayCallback(
  em: EntityManager,
  query: { gateway: GatewayName; payload: string; signature: string },
  deps: PaymentDeps,
  now = new Date(),
): Promise<CallbackResult> {
  let paymentRef: string;
  try {
    paymentRef = claimedPaymentRef(query.payload);
  } catch (error) {
    if (error instanceof InvalidCallbackError) return refuse(deps, query.gateway, error.why);
    throw error;
  }
  return handleGatewayReturn(em, { gateway: query.gateway, paymentRef, query }, deps, now);
}

/**
 * A browser return from any gateway (GET /api/external/payment/response and
 * /api/external/payment/response/{gateway}/{paymentRef}). Everything is checked before anything
 * changes: that the reference is ours and the gateway the one the attempt used; then the
 * gateway's adapter confirms the return (the sandbox's signature; Khalti's lookup; eSewa's signed
 * data and status check), and the word must be about this attempt's amount and currency; then,
 * under the settlement locks, that the gateway has not already given its word. A refused return
 * is the same 400 ("Invalid payment callback") with nothing written; the reason goes to the log
 * only. A provider that is not answering, or has not decided, changes nothing either: the
 * customer goes back to the partner, and reconciliation asks again later.
 */
export async function handleGatewayReturn(
  em: EntityManager,
  ret: GatewayReturn,
  deps: PaymentDeps,
  now = new Date(),
): Promise<CallbackResult> {
  const attempt = await em.fork().findOne(PaymentAttempt, { paymentRef: ret.paymentRef });
  if (!attempt) return refuse(deps, ret.gateway, 'unknown payment reference');
  const refuseReturn = (why: string) => refuseAbout(deps, ret.gateway, why, attempt);
  if (attempt.gateway !== ret.gateway) return refuseReturn('returned from a gateway the attempt did not use');
  const unchanged: CallbackResult = {
    paymentRef: attempt.paymentRef,
    status: attempt.status,
    returnUrl: attempt.returnUrl,
  };

  let word: GatewayLookup;
  try {
    word = await gatewayOfAttempt(deps, attempt).confirmReturn(ret.query, attempt);
  } catch (error) {
    if (error instanceof InvalidCallbackError) return refuseReturn(error.why);
    if (!(error instanceof ProviderUnavailableError)) throw error;
    deps.logger.warn(
      { gateway: ret.gateway, paymentRef: attempt.paymentRef, provider: error.provider, kind: error.kind },
      'payment return not confirmed: provider unavailable; reconciliation will ask again',
    );
    return unchanged;
  }
  if (!word.decided) return unchanged;
  const { report } = word;
  const age = now.getTime() - report.issuedAt.getTime();
  if (age < -CLOCK_SKEW_MS) return refuseReturn('issued in the future');
  if (age > deps.payments.callbackMaxAgeSeconds * 1000)
    return refuseReturn('stale: older than PAYMENT_CALLBACK_MAX_AGE_SECONDS');
  if (!reportMatches(attempt, report)) {
    deps.logger.error(
      { paymentRef: attempt.paymentRef, gateway: ret.gateway },
      'gateway word does not match the attempt (amount, currency or reference)',
    );
    return refuseReturn('amount or currency differs from the attempt');
  }

  const result = await em.fork().transactional(async (tx) => {
    const locked = await lockAttemptForSettlement(tx, attempt.id);
    const recorded = await recordGatewayWord(tx, locked, report, now, deps);
    if (recorded.effect.kind === 'REPLAY') {
      // A lookup asked twice (a customer reloading Khalti's return) is no forgery: answer what stands.
      if (word.confirmed)
        return { paymentRef: locked.paymentRef, status: locked.status, returnUrl: locked.returnUrl, replay: true };
      return refuseReturn('replayed: the gateway already reported this attempt');
    }
    deps.logger.info(
      { paymentRef: locked.paymentRef, status: locked.status, paid: recorded.paidOrderRefs },
      'payment callback recorded',
    );
    return { paymentRef: locked.paymentRef, status: locked.status, returnUrl: locked.returnUrl, replay: false };
  });
  // Counted after the commit, so a rolled-back settlement is never reported as an outcome.
  if (!result.replay) deps.metrics?.paymentOutcomes.inc({ gateway: ret.gateway, outcome: result.status });
  return { paymentRef: result.paymentRef, status: result.status, returnUrl: result.returnUrl };
}

function refuse(deps: PaymentDeps, gateway: GatewayName, why: string): never {
  return refuseAbout(deps, gateway, why, undefined);
}

function refuseAbout(
  deps: PaymentDeps,
  gateway: GatewayName,
  why: string,
  attempt: { paymentRef: string; returnUrl?: string } | undefined,
): never {
  deps.logger.warn({ gateway, why, paymentRef: attempt?.paymentRef }, 'payment callback refused');
  throw new ReturnRefusedError(attempt && { paymentRef: attempt.paymentRef, returnUrl: attempt.returnUrl });
}
