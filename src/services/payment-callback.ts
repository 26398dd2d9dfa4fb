import type { EntityManager } from '@mikro-orm/postgresql';
import { PaymentAttempt } from '../entities/payment-attempt';
import { InvalidCallbackError, type GatewayName } from '../gateways/gateway';
import { badRequest } from '../http/app-error';
import type { AttemptStatus } from '../domain/payment-attempt';
import { gatewayOf, type PaymentDeps } from './payment-deps';
import { lockAttemptForSettlement, recordGatewayWord, reportMatches } from './payment-settlement';

/** How far a gateway's clock may run ahead of ours. */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface CallbackResult {
  paymentRef: string;
  status: AttemptStatus;
  returnUrl?: string;
}

/**
 * GET /api/external/payment/response. Everything is checked before anything changes: the
 * signature under the gateway's secret, the payload's age, that the reference is ours and the
 * gateway the one the attempt used, the amount and currency; then, under the settlement locks,
 * that the gateway has not already given its word (a replay). Any failure is the same 400
 * ("Invalid payment callback") with nothing written; the reason goes to the log only.
 */
export async function handleGatewayCallback(
  em: EntityManager,
  query: { gateway: GatewayName; payload: string; signature: string },
  deps: PaymentDeps,
  now = new Date(),
): Promise<CallbackResult> {
  const reject = (why: string): never => {
    deps.logger.warn({ gateway: query.gateway, why }, 'payment callback refused');
    throw badRequest('Invalid payment callback');
  };
  let report;
  try {
    report = gatewayOf(deps, query.gateway).verifyCallback(query);
  } catch (error) {
    if (error instanceof InvalidCallbackError) return reject(error.why);
    throw error;
  }
  const age = now.getTime() - report.issuedAt.getTime();
  if (age < -CLOCK_SKEW_MS) return reject('issued in the future');
  if (age > deps.payments.callbackMaxAgeSeconds * 1000) return reject('stale: older than PAYMENT_CALLBACK_MAX_AGE_SECONDS');

  const attempt = await em.fork().findOne(PaymentAttempt, { paymentRef: report.paymentRef });
  if (!attempt) return reject('unknown payment reference');
  if (attempt.gateway !== query.gateway) return reject('signed by a gateway the attempt did not use');
  if (!reportMatches(attempt, report)) return reject('amount or currency differs from the attempt');

  const result = await em.fork().transactional(async (tx) => {
    const locked = await lockAttemptForSettlement(tx, attempt.id);
    const recorded = await recordGatewayWord(tx, locked, report, now, deps);
    if (recorded.effect.kind === 'REPLAY') return reject('replayed: the gateway already reported this attempt');
    deps.logger.info({ paymentRef: locked.paymentRef, status: locked.status, paid: recorded.paidOrderRefs }, 'payment callback recorded');
    return { paymentRef: locked.paymentRef, status: locked.status, returnUrl: locked.returnUrl };
  });
  // Counted after the commit, so a rolled-back settlement is never reported as an outcome.
  deps.metrics?.paymentOutcomes.inc({ gateway: query.gateway, outcome: result.status });
  return result;
}
