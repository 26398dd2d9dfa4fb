import type { EntityManager } from '@mikro-orm/postgresql';
import { isExpired, needsReconciliation } from './rules/payment-attempt';
import { PaymentAttempt } from './entities/payment-attempt';
import { gatewayOf, type PaymentDeps } from './payment-deps';
import { closeWithGateway, type CloseOutcome } from './open-attempts';
import { lockAttemptForSettlement, recordGatewayWord, reportMatches } from './settlement';

export type ReconcileOutcome = 'PAID' | 'LATE_CAPTURE' | 'FAILED' | 'CANCELLED' | 'EXPIRED' | 'CONFIRMED_CLOSED' | 'UNCHANGED' | 'MISMATCH';

/**
 * Asks the attempt's gateway what it decided and records the answer. The lookup happens outside
 * any database transaction (a remote call must not hold row locks); the answer is then recorded
 * in one transaction under the same locks as a callback, re-checked against the current state.
 * An open attempt past its expiry is closed through its gateway like any other orphaned attempt
 * (closeWithGateway): voided where the gateway can, settled if it captured meanwhile.
 */
export async function reconcileAttempt(em: EntityManager, attemptId: string, deps: PaymentDeps, now = new Date()): Promise<ReconcileOutcome> {
  const snapshot = await em.fork().findOneOrFail(PaymentAttempt, attemptId);
  const outcome = isExpired(snapshot, now) ? expiryOutcome(await closeWithGateway(em, attemptId, 'EXPIRED', deps, now)) : await lookUp(em, snapshot, deps, now);
  if (outcome !== 'UNCHANGED' && outcome !== 'CONFIRMED_CLOSED') {
    deps.metrics?.paymentOutcomes.inc({ gateway: snapshot.gateway, outcome: `RECONCILED_${outcome}` });
  }
  return outcome;
}

function expiryOutcome(closed: CloseOutcome): ReconcileOutcome {
  switch (closed) {
    case 'PAID':
      return 'PAID';
    case 'REFUND_PENDING':
      return 'LATE_CAPTURE';
    case 'VOIDED':
    case 'CLOSED_UNCONFIRMED':
      return 'EXPIRED';
    case 'MISMATCH':
      return 'MISMATCH';
    case 'FINISHED_AT_GATEWAY':
    case 'ALREADY_CLOSED':
      return 'UNCHANGED';
  }
}

async function lookUp(em: EntityManager, snapshot: PaymentAttempt, deps: PaymentDeps, now: Date): Promise<ReconcileOutcome> {
  const lookup = await gatewayOf(deps, snapshot.gateway).lookupStatus(snapshot);
  return em.fork().transactional(async (tx): Promise<ReconcileOutcome> => {
    const attempt = await lockAttemptForSettlement(tx, snapshot.id);
    attempt.lastCheckedAt = now;
    if (!lookup.decided) return 'UNCHANGED';
    const { report } = lookup;
    if (!reportMatches(attempt, report)) {
      // The gateway's ledger disagrees with ours: leave it to an operator, never settle a different amount.
      deps.logger.error({ paymentRef: attempt.paymentRef, gateway: attempt.gateway }, 'gateway lookup does not match the attempt');
      return 'MISMATCH';
    }
    const recorded = await recordGatewayWord(tx, attempt, report, now, deps);
    switch (recorded.effect.kind) {
      case 'REPLAY':
        return 'UNCHANGED';
      case 'CONFIRM_CLOSED':
        return 'CONFIRMED_CLOSED';
      case 'LATE_CAPTURE':
        return 'LATE_CAPTURE';
      case 'COMPLETE':
        return recorded.effect.status === 'SUCCESS' ? 'PAID' : recorded.effect.status;
    }
  });
}

export type ReconcileSummary = Record<ReconcileOutcome, number> & { checked: number; errors: number };

const BATCH = 200;

/**
 * One pass of the reconciliation job: every attempt left INITIATED past
 * PAYMENT_RECONCILE_AFTER_SECONDS or its expiry, and every attempt we closed ourselves whose
 * gateway has not confirmed yet (for PAYMENT_CALLBACK_MAX_AGE_SECONDS after the close), so that a
 * capture racing a supersede or an expiry is still found.
 */
export async function reconcileDueAttempts(em: EntityManager, deps: PaymentDeps, now = new Date()): Promise<ReconcileSummary> {
  const { reconcileAfterSeconds, callbackMaxAgeSeconds } = deps.payments;
  const candidates = await em.fork().find(
    PaymentAttempt,
    {
      gatewayConfirmedAt: null,
      $or: [
        { status: 'INITIATED', $or: [{ createdAt: { $lte: new Date(now.getTime() - reconcileAfterSeconds * 1000) } }, { expiresAt: { $lte: now } }] },
        { status: { $in: ['CANCELLED', 'EXPIRED'] }, closedReason: { $ne: null }, completedAt: { $gte: new Date(now.getTime() - callbackMaxAgeSeconds * 1000) } },
      ],
    },
    { orderBy: { createdAt: 'asc' }, limit: BATCH },
  );
  const summary: ReconcileSummary = { checked: 0, errors: 0, PAID: 0, LATE_CAPTURE: 0, FAILED: 0, CANCELLED: 0, EXPIRED: 0, CONFIRMED_CLOSED: 0, UNCHANGED: 0, MISMATCH: 0 };
  for (const attempt of candidates) {
    const due = needsReconciliation(
      { status: attempt.status, gatewayConfirmed: false, createdAt: attempt.createdAt, completedAt: attempt.completedAt },
      now,
      reconcileAfterSeconds,
      callbackMaxAgeSeconds,
    );
    if (!due && !isExpired(attempt, now)) continue;
    summary.checked += 1;
    try {
      summary[await reconcileAttempt(em, attempt.id, deps, now)] += 1;
    } catch (error) {
      summary.errors += 1;
      deps.logger.error({ err: error, paymentRef: attempt.paymentRef }, 'reconciling a payment attempt failed');
    }
  }
  return summary;
}
