import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClosedReason } from './rules/payment-attempt';
import { PaymentAttempt } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import type { GatewayVoid } from './providers/gateway';
import { conflict } from '../../kernel/errors';
import { gatewayOf, type PaymentDeps } from './payment-deps';
import { lockAttemptForSettlement, recordGatewayWord, reportMatches } from './settlement';
import { endedPaymentEventType, recordPaymentEvents } from '../webhooks';

/**
 * Raised inside a use case's transaction that is about to orphan open payment attempts (change an
 * order's price or state, or start a newer attempt). The transaction rolls back; the attempts are
 * settled or closed with their gateways outside it (withOpenAttemptsClosed), and the use case runs
 * again on what that left.
 */
class OpenAttemptsInTheWay extends Error {
  constructor(readonly attemptIds: string[]) {
    super(`open payment attempts in the way: ${attemptIds.join(', ')}`);
  }
}

/**
 * The check every change of a pending order makes before it writes, after it has locked the
 * orders and found the change valid: no attempt that could still take money for them is open.
 */
export async function assertNoOpenAttempts(tx: EntityManager, orderIds: string[]): Promise<void> {
  const open = await openAttemptIds(tx, orderIds);
  if (open.length > 0) throw new OpenAttemptsInTheWay(open);
}

/** A change can only lose this race to new attempts so often before the caller is told to retry. */
const MAX_ROUNDS = 3;

/**
 * Runs `change` (one whole transaction that calls assertNoOpenAttempts) so that no payment is
 * orphaned by it: an attempt in its way is first put to its gateway (closeWithGateway). When the
 * gateway had captured, the order is settled PAID by that attempt and the change, run again,
 * finds the order no longer pending and refuses (400); when not, the attempt is closed (voided at
 * the gateway where the gateway can) and the change goes ahead. No row lock is held during a
 * gateway call. `change` learns which attempts were closed for it (a new attempt names itself as
 * their successor).
 */
export async function withOpenAttemptsClosed<T>(
  em: EntityManager,
  deps: PaymentDeps,
  reason: Exclude<ClosedReason, 'ORDER_PAID'>,
  change: (closedBefore: readonly string[]) => Promise<T>,
  expectedInTheWay?: () => Promise<readonly string[]>,
): Promise<T> {
  const closedBefore: string[] = [];
  const close = async (attemptIds: readonly string[]) => {
    for (const attemptId of attemptIds) {
      const outcome = await closeWithGateway(em, attemptId, reason, deps);
      if (outcome === 'MISMATCH') {
        throw conflict('The gateway\'s record of the open payment for this order does not match ours; the operator has been alerted');
      }
      if (outcome === 'VOIDED' || outcome === 'CLOSED_UNCONFIRMED') closedBefore.push(attemptId);
    }
  };
  // A caller that can tell (from a plain read, having checked that the change is its to make)
  // which attempts its change will find in the way has them closed before the first round, rather
  // than after a first transaction that finds them and rolls back.
  if (expectedInTheWay) await close(await expectedInTheWay());
  for (let round = 1; ; round += 1) {
    try {
      return await change(closedBefore);
    } catch (error) {
      if (!(error instanceof OpenAttemptsInTheWay)) throw error;
      if (round === MAX_ROUNDS) throw conflict('A payment for this order is being started or settled at this moment; try again shortly');
      await close(error.attemptIds);
    }
  }
}

/** The attempts that could still take money for these orders, read without locks (see withOpenAttemptsClosed's expectedInTheWay). */
export async function openAttemptIds(em: EntityManager, orderIds: readonly string[]): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const lines = await em.find(PaymentAttemptOrder, { order: { $in: [...orderIds] }, attempt: { status: 'INITIATED' } }, { fields: ['attempt'] });
  return [...new Set(lines.map((line) => line.attempt.id))].sort();
}

export type CloseOutcome = 'PAID' | 'REFUND_PENDING' | 'VOIDED' | 'CLOSED_UNCONFIRMED' | 'FINISHED_AT_GATEWAY' | 'ALREADY_CLOSED' | 'MISMATCH';

/**
 * Puts one open attempt to its gateway and records the answer under the settlement locks: the
 * capture it already made (the orders become PAID), the decline or cancellation it already had,
 * or our close (`reason`): confirmed when the gateway voided it, otherwise watched by
 * reconciliation for a late capture. The expiry of an abandoned checkout comes this way too.
 */
export async function closeWithGateway(em: EntityManager, attemptId: string, reason: Exclude<ClosedReason, 'ORDER_PAID'>, deps: PaymentDeps, now = new Date()): Promise<CloseOutcome> {
  const snapshot = await em.fork().findOneOrFail(PaymentAttempt, attemptId);
  if (snapshot.status !== 'INITIATED') return 'ALREADY_CLOSED';
  const answer = await gatewayOf(deps, snapshot.gateway).voidPayment(snapshot);
  const outcome = await em.fork().transactional((tx) => recordClose(tx, attemptId, reason, answer, deps, now));
  deps.logger.info({ paymentRef: snapshot.paymentRef, gateway: snapshot.gateway, reason, outcome }, 'open payment attempt put to its gateway');
  return outcome;
}

async function recordClose(
  tx: EntityManager,
  attemptId: string,
  reason: Exclude<ClosedReason, 'ORDER_PAID'>,
  answer: GatewayVoid,
  deps: PaymentDeps,
  now: Date,
): Promise<CloseOutcome> {
  const attempt = await lockAttemptForSettlement(tx, attemptId);
  if (answer.kind === 'DECIDED') {
    const { report } = answer;
    if (!reportMatches(attempt, report)) {
      deps.logger.error({ paymentRef: attempt.paymentRef, gateway: attempt.gateway }, 'gateway record does not match the attempt');
      return 'MISMATCH';
    }
    const recorded = await recordGatewayWord(tx, attempt, report, now, deps);
    if (recorded.effect.kind === 'LATE_CAPTURE' || (recorded.effect.kind === 'COMPLETE' && recorded.effect.status === 'SUCCESS')) {
      return attempt.status === 'SUCCESS' ? 'PAID' : 'REFUND_PENDING';
    }
    return recorded.effect.kind === 'COMPLETE' ? 'FINISHED_AT_GATEWAY' : 'ALREADY_CLOSED';
  }
  if (attempt.status !== 'INITIATED') return 'ALREADY_CLOSED';
  attempt.status = reason === 'EXPIRED' ? 'EXPIRED' : 'CANCELLED';
  attempt.closedReason = reason;
  attempt.completedAt = now;
  attempt.lastCheckedAt = now;
  await recordPaymentEvents(tx, endedPaymentEventType(attempt.status), attempt, { at: now, reason });
  if (answer.kind === 'VOIDED') {
    // The gateway's own word: it will never take this payment, so nothing is left to watch for.
    attempt.gatewayConfirmedAt = now;
    attempt.failureReason = 'VOIDED_BY_MERCHANT';
    return 'VOIDED';
  }
  return 'CLOSED_UNCONFIRMED';
}
