import type { EntityManager } from '@mikro-orm/postgresql';
import { FlushMode } from '@mikro-orm/core';
import type { ClosedReason } from './rules/payment-attempt';
import { PaymentAttempt } from './entities/payment-attempt';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import type { GatewayVoid } from './providers/gateway';
import { conflict } from '../../kernel/errors';
import { gatewayOfAttempt, type PaymentDeps } from './payment-deps';
import { lockAttemptForSettlement, recordGatewayWord, reportMatches } from './settlement';
import { moveAttempt } from './attempt-life';
import { expireTopUpExtension, type AnswersRecorded, type CheckoutAnswers, type ClosedAttempt } from '../orders';

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
  const open = await stillOpenAttempts(tx, orderIds);
  if (open.length > 0) throw new OpenAttemptsInTheWay(open.map((attempt) => attempt.id));
}

/**
 * The attempts that could still take money for these orders, as the caller's transaction sees
 * them: an attempt this transaction closed (and holds locked) is closed, written yet or not (it
 * goes out with the change's own writes, in one flush).
 */
export async function stillOpenAttempts(tx: EntityManager, orderIds: readonly string[]): Promise<PaymentAttempt[]> {
  const open = (await openAttemptIds(tx, orderIds)).filter(
    (id) => (tx.getUnitOfWork().getById(PaymentAttempt, id)?.status ?? 'INITIATED') === 'INITIATED',
  );
  return Promise.all(open.map((id) => tx.findOneOrFail(PaymentAttempt, id)));
}

/** A change can only lose this race to new attempts so often before the caller is told to retry. */
const MAX_ROUNDS = 3;

/**
 * Records, inside the change's transaction, what the gateways answered about the attempts the
 * change expected in its way (asked before the transaction began). It locks their orders and then
 * each attempt, as settlement does, so the change calls it before it locks anything itself.
 */
type RecordAnswers = CheckoutAnswers['recordIn'];

/**
 * Runs `change` (one whole transaction that calls assertNoOpenAttempts) so that no payment is
 * orphaned by it: an attempt in its way is first put to its gateway (closeWithGateway). When the
 * gateway had captured, the order is settled PAID by that attempt and the change, run again,
 * finds the order no longer pending and refuses (400); when not, the attempt is closed (voided at
 * the gateway where the gateway can) and the change goes ahead. No row lock is held during a
 * gateway call. `change` learns which attempts were closed for it (a new attempt names itself as
 * their successor). (The cancellation lists these steps itself, through checkoutAnswers.)
 */
export async function withOpenAttemptsClosed<T>(
  em: EntityManager,
  deps: PaymentDeps,
  reason: Exclude<ClosedReason, 'ORDER_PAID'>,
  change: (closedBefore: readonly ClosedAttempt[]) => Promise<T>,
): Promise<T> {
  const closedBefore: ClosedAttempt[] = [];
  const answers = new GatewayAnswers(reason, deps);
  for (let round = 1; ; round += 1) {
    try {
      return await change(closedBefore);
    } catch (error) {
      if (!(error instanceof OpenAttemptsInTheWay)) throw error;
      if (round === MAX_ROUNDS)
        throw conflict('A payment for this order is being started or settled at this moment; try again shortly').coded(
          'PAYMENT_IN_PROGRESS',
        );
      await answers.ask(
        await Promise.all(error.attemptIds.map((attemptId) => em.fork().findOneOrFail(PaymentAttempt, attemptId))),
      );
      closedBefore.push(...(await answers.recordOnTheirOwn(em)));
    }
  }
}

/**
 * The gateways' answers about the open checkouts a change finds in its way, for a use case that
 * lists its own steps (the cancellation; orders declares CheckoutAnswers): `ask` with no lock held;
 * `recordIn` the change's transaction before it locks anything (the attempts it closed, the orders
 * it locked); then `afterTransaction`, which records on their own the answers a rolled-back
 * transaction lost and answers the attempts closed.
 */
export function checkoutAnswers(deps: PaymentDeps, reason: Exclude<ClosedReason, 'ORDER_PAID'>): CheckoutAnswers {
  const answers = new GatewayAnswers(reason, deps);
  return {
    ask: (attempts) => answers.ask(attempts),
    recordIn: answers.recordIn,
    afterTransaction: async (em, committed) => {
      if (committed) answers.committed();
      else answers.rolledBack();
      return answers.recordOnTheirOwn(em);
    },
  };
}

/**
 * Gateways' answers about open attempts, asked with no lock held, until they are recorded: in the
 * change's transaction (`recordIn`, gone again if it rolls back) or each in a transaction of its
 * own (`recordOnTheirOwn`, for what no committed change recorded).
 */
class GatewayAnswers {
  private unrecorded: AskedGateway[] = [];
  /** Those `recordIn` recorded in a change's transaction, until it commits or rolls back. */
  private inChange: AskedGateway[] = [];

  constructor(
    private readonly reason: Exclude<ClosedReason, 'ORDER_PAID'>,
    private readonly deps: PaymentDeps,
  ) {}

  async ask(attempts: readonly PaymentAttempt[]): Promise<void> {
    for (const attempt of attempts) {
      const asked = await askGateway(attempt, this.deps);
      if (asked) this.unrecorded.push(asked);
    }
  }

  readonly recordIn: RecordAnswers = async (tx) => {
    const recorded: AnswersRecorded = { closed: [], lockedOrderIds: [] };
    let captured = false;
    for (let asked = this.unrecorded.shift(); asked; asked = this.unrecorded.shift()) {
      const { outcome, lockedOrderIds } = await recordClose(tx, asked, this.reason, this.deps);
      // A mismatch writes nothing and refuses the change (closedForChange throws): nothing to record again.
      if (outcome !== 'MISMATCH') this.inChange.push(asked);
      if (closedForChange(outcome)) recorded.closed.push(closedAttempt(asked));
      captured ||= outcome === 'PAID' || outcome === 'REFUND_PENDING';
      recorded.lockedOrderIds.push(...lockedOrderIds);
    }
    // A capture's rows are read by the change (an order's paid share); a close is not, and is
    // written with the change's own writes.
    if (captured) await tx.flush();
    return recorded;
  };

  /** The change's transaction committed: what it recorded stays. */
  committed(): void {
    this.inChange = [];
  }

  /** The change's transaction rolled back, and what it recorded with it. */
  rolledBack(): void {
    this.unrecorded.push(...this.inChange);
    this.inChange = [];
  }

  /** Records each answer not recorded yet in a transaction of its own; answers the attempts closed. */
  async recordOnTheirOwn(em: EntityManager): Promise<ClosedAttempt[]> {
    const closed: ClosedAttempt[] = [];
    for (let asked = this.unrecorded.shift(); asked; asked = this.unrecorded.shift()) {
      const current = asked;
      const { outcome } = await em.fork().transactional((tx) => recordClose(tx, current, this.reason, this.deps));
      if (closedForChange(outcome)) closed.push(closedAttempt(current));
    }
    return closed;
  }
}

/** The attempts that could still take money for these orders, read without locks (see withOpenAttemptsClosed's expectedInTheWay). */
export async function openAttempts(em: EntityManager, orderIds: readonly string[]): Promise<PaymentAttempt[]> {
  if (orderIds.length === 0) return [];
  const lines = await em.find(
    PaymentAttemptOrder,
    { order: { $in: [...orderIds] }, attempt: { status: 'INITIATED' } },
    { populate: ['attempt'] },
  );
  const attempts = new Map(lines.map((line) => [line.attempt.id, line.attempt]));
  return [...attempts.values()].sort((a, b) => a.id.localeCompare(b.id));
}

async function openAttemptIds(tx: EntityManager, orderIds: readonly string[]): Promise<string[]> {
  // No flush first: what the transaction changed in memory is read by the caller itself.
  const lines = await tx.find(
    PaymentAttemptOrder,
    { order: { $in: [...orderIds] }, attempt: { status: 'INITIATED' } },
    { fields: ['attempt'], flushMode: FlushMode.COMMIT },
  );
  return [...new Set(lines.map((line) => line.attempt.id))].sort();
}

/** A gateway's answer to our void of an open attempt, not yet recorded. */
interface AskedGateway {
  attempt: PaymentAttempt;
  answer: GatewayVoid;
  at: Date;
}

export type CloseOutcome =
  'PAID' | 'REFUND_PENDING' | 'VOIDED' | 'CLOSED_UNCONFIRMED' | 'FINISHED_AT_GATEWAY' | 'ALREADY_CLOSED' | 'MISMATCH';

/**
 * Puts one open attempt to its gateway and records the answer under the settlement locks: the
 * capture it already made (the orders become PAID), the decline or cancellation it already had,
 * or our close (`reason`): confirmed when the gateway voided it, otherwise watched by
 * reconciliation for a late capture. The expiry of an abandoned checkout comes this way too.
 */
export async function closeWithGateway(
  em: EntityManager,
  attemptId: string,
  reason: Exclude<ClosedReason, 'ORDER_PAID'>,
  deps: PaymentDeps,
  now = new Date(),
): Promise<CloseOutcome> {
  const asked = await askGateway(await em.fork().findOneOrFail(PaymentAttempt, attemptId), deps, now);
  if (!asked) return 'ALREADY_CLOSED';
  const { outcome } = await em.fork().transactional((tx) => recordClose(tx, asked, reason, deps));
  return outcome;
}

/** Voids an attempt at its gateway, with no lock held: the answer to record, or null when the attempt is no longer open. */
async function askGateway(attempt: PaymentAttempt, deps: PaymentDeps, at = new Date()): Promise<AskedGateway | null> {
  if (attempt.status !== 'INITIATED') return null;
  return { attempt, answer: await gatewayOfAttempt(deps, attempt).voidPayment(attempt), at };
}

/** Records a gateway's answer about an open attempt under the settlement locks, and logs it. */
async function recordClose(
  tx: EntityManager,
  asked: AskedGateway,
  reason: Exclude<ClosedReason, 'ORDER_PAID'>,
  deps: PaymentDeps,
): Promise<{ outcome: CloseOutcome; lockedOrderIds: string[] }> {
  const attempt = await lockAttemptForSettlement(tx, asked.attempt.id);
  const outcome = await recordAnswer(tx, attempt, asked, reason, deps);
  deps.logger.info(
    { paymentRef: attempt.paymentRef, gateway: attempt.gateway, reason, outcome },
    'open payment attempt put to its gateway',
  );
  return { outcome, lockedOrderIds: attempt.orders.getItems().map((line) => line.order.id) };
}

/** Whether the attempt was closed for the change (not captured or finished first); a mismatch refuses the change (409). */
function closedForChange(outcome: CloseOutcome): boolean {
  if (outcome === 'MISMATCH') {
    throw conflict(
      "The gateway's record of the open payment for this order does not match ours; the operator has been alerted",
    );
  }
  return outcome === 'VOIDED' || outcome === 'CLOSED_UNCONFIRMED';
}

const closedAttempt = ({ attempt }: AskedGateway): ClosedAttempt => ({
  id: attempt.id,
  paymentRef: attempt.paymentRef,
});

async function recordAnswer(
  tx: EntityManager,
  attempt: PaymentAttempt,
  { answer, at: now }: AskedGateway,
  reason: Exclude<ClosedReason, 'ORDER_PAID'>,
  deps: PaymentDeps,
): Promise<CloseOutcome> {
  if (answer.kind === 'DECIDED') {
    const { report } = answer;
    if (!reportMatches(attempt, report)) {
      deps.logger.error(
        { paymentRef: attempt.paymentRef, gateway: attempt.gateway },
        'gateway record does not match the attempt',
      );
      return 'MISMATCH';
    }
    const recorded = await recordGatewayWord(tx, attempt, report, now, deps);
    if (
      recorded.effect.kind === 'LATE_CAPTURE' ||
      (recorded.effect.kind === 'COMPLETE' && recorded.effect.status === 'SUCCESS')
    ) {
      return attempt.status === 'SUCCESS' ? 'PAID' : 'REFUND_PENDING';
    }
    return recorded.effect.kind === 'COMPLETE' ? 'FINISHED_AT_GATEWAY' : 'ALREADY_CLOSED';
  }
  if (attempt.status !== 'INITIATED') return 'ALREADY_CLOSED';
  attempt.lastCheckedAt = now;
  // A top-up's extension expires with its checkout (decision record 0099).
  await expireTopUpExtension(tx, attempt.paymentRef);
  await moveAttempt(tx, attempt, { step: reason === 'EXPIRED' ? 'EXPIRE' : 'CANCEL', at: now, closedReason: reason });
  if (answer.kind === 'VOIDED') {
    // The gateway's own word: it will never take this payment, so nothing is left to watch for.
    attempt.gatewayConfirmedAt = now;
    attempt.failureReason = 'VOIDED_BY_MERCHANT';
    return 'VOIDED';
  }
  return 'CLOSED_UNCONFIRMED';
}
