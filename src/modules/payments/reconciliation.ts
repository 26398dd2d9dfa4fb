import type { EntityManager } from '@mikro-orm/postgresql';
import { isExpired } from './rules/payment-attempt';
import { PaymentAttempt } from './entities/payment-attempt';
import { gatewayOfAttempt, type PaymentDeps } from './payment-deps';
import { closeWithGateway, type CloseOutcome } from './open-attempts';
import { lockAttemptForSettlement, recordGatewayWord, reportMatches } from './settlement';
import type { ReturnLookupCache } from './providers/return-lookup-cache';

export type ReconcileOutcome =
  'PAID' | 'LATE_CAPTURE' | 'FAILED' | 'CANCELLED' | 'EXPIRED' | 'CONFIRMED_CLOSED' | 'UNCHANGED' | 'MISMATCH';

/**
 * Asks the attempt's gateway what it decided and records the answer. The lookup happens outside
 * any database transaction (a remote call must not hold row locks); the answer is then recorded
 * in one transaction under the same locks as a callback, re-checked against the current state.
 * An open attempt past its expiry is closed through its gateway like any other orphaned attempt
 * (closeWithGateway): voided where the gateway can, settled if it captured meanwhile. With
 * `lookups` (payment-status), a provider's answer of the last few seconds about the attempt is reused.
 */
export async function reconcileAttempt(
  em: EntityManager,
  attemptId: string,
  deps: PaymentDeps,
  now = new Date(),
  lookups?: ReturnLookupCache,
): Promise<ReconcileOutcome> {
  const snapshot = await em.fork().findOneOrFail(PaymentAttempt, attemptId);
  const outcome = isExpired(snapshot, now)
    ? expiryOutcome(await closeWithGateway(em, attemptId, 'EXPIRED', deps, now))
    : await lookUp(em, snapshot, deps, now, lookups);
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

async function lookUp(
  em: EntityManager,
  snapshot: PaymentAttempt,
  deps: PaymentDeps,
  now: Date,
  lookups: ReturnLookupCache | undefined,
): Promise<ReconcileOutcome> {
  const ask = () => gatewayOfAttempt(deps, snapshot).lookupStatus(snapshot);
  const lookup = await (lookups ? lookups.lookup(snapshot.paymentRef, ask) : ask());
  return em.fork().transactional(async (tx): Promise<ReconcileOutcome> => {
    const attempt = await lockAttemptForSettlement(tx, snapshot.id);
    attempt.lastCheckedAt = now;
    if (!lookup.decided) return 'UNCHANGED';
    const { report } = lookup;
    if (!reportMatches(attempt, report)) {
      // The gateway's ledger disagrees with ours: leave it to an operator, never settle a different amount.
      deps.logger.error(
        { paymentRef: attempt.paymentRef, gateway: attempt.gateway },
        'gateway lookup does not match the attempt',
      );
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
