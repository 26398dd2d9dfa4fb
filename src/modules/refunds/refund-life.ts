import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../orders/entities/order';
import type { PaymentAttempt } from '../payments/entities/payment-attempt';
import { recordRefundEvent } from '../webhooks';
import { recordCommissionReversal } from '../commissions';
import { Refund } from './entities/refund';
import { refundAuditDetails, refundEventFacts } from './refund-facts';
import type { RefundAuditAction, RefundPorts } from './refund-deps';
import { refundStep, type RefundCause, type RefundStatus, type RefundStep } from './rules/refund-life';
import type { Minor } from '../../kernel/money';
import { afterCommit } from '../../kernel/db/after-commit';

/**
 * The one writer of a refund's life (decision record 0075): its birth, its claim by the
 * executor, and every step of rules/refund-life.ts, each with its audit entry and event, whoever
 * asks (the executor, an operator, a late capture, the reversal watch). The entity's life fields
 * are readonly; test/refunds/one-writer.test.ts fails when another file writes them.
 */

/** What a step needs besides the refund: who takes it, when, and what the provider or the operator said. */
export interface RefundMove {
  step: RefundStep;
  actor: string;
  at: Date;
  /** The provider that answered (sandbox, khalti, esewa, cash). */
  provider?: string;
  /** The provider's reference for the money going back. */
  providerRefundRef?: string;
  /** The operator's note (CONFIRM), or what the reversal watch saw (FOUND_AT_PROVIDER). */
  note?: string;
  /** Why (NEED_OPERATOR, FAIL, RETRY_LATER). */
  why?: string;
  /** RETRY_LATER: when the executor may try again. */
  nextTryAt?: Date;
  /** RETRY_LATER: the try failed before the refund call was sent (a lookup), so its outcome is known: nothing. */
  nothingSent?: boolean;
  /**
   * CONFIRM, FOUND_AT_PROVIDER: what actually went back, when it differs from the amount recorded
   * (the operator's `--amount`; what a full reversal left for this refund). Never more than the
   * caller checked fits in the share (decision 0091).
   */
  amount?: Minor;
}

/** A step refused by the machine: a caller that did not check the status first is wrong. */
export class RefundStepRefused extends Error {}

/** The refund's fields a step writes; Object.assign is how this file, and only it, writes them. */
type RefundLife = Pick<
  Refund,
  | 'amount'
  | 'status'
  | 'provider'
  | 'providerRefundRef'
  | 'tries'
  | 'outcomeUnknown'
  | 'nextTryAt'
  | 'claimedUntil'
  | 'lastError'
  | 'completedAt'
  | 'note'
>;

const AUDIT_ACTION: Readonly<Record<RefundStep, RefundAuditAction | null>> = {
  RETRY_LATER: null,
  SUCCEED: 'REFUND_SUCCEEDED',
  NEED_OPERATOR: 'REFUND_MANUAL',
  FAIL: 'REFUND_FAILED',
  RETRY: 'REFUND_RETRIED',
  CONFIRM: 'REFUND_CONFIRMED',
  FOUND_AT_PROVIDER: 'REFUND_SUCCEEDED',
};

/**
 * Applies one step to a refund whose share's refund lock the caller holds (share-room.ts's
 * lockSharesForRefunds, decision 0091), read after it was taken, populated with its attempt and order: the new fields, the share of the payment it
 * settles (through payments' writer, `ports.refundWrites`: decision record 0111), its audit entry, and `refund.succeeded` / `refund.failed`.
 */
export async function moveRefund(
  tx: EntityManager,
  refund: Refund,
  move: RefundMove,
  ports: RefundPorts,
): Promise<void> {
  const next = refundStep(refund.status, move.step);
  if ('refused' in next) throw new RefundStepRefused(`${refund.refundRef}: ${next.refused}`);
  if (next.to !== refund.status) countAfterCommit(tx, ports, refund, next.to);
  Object.assign(refund, lifeAfter(refund, next.to, move) satisfies Partial<RefundLife>);
  if (next.to === 'SUCCEEDED') {
    await ports.refundWrites.refunded(tx, {
      attempt: refund.attempt,
      order: refund.order,
      cause: refund.cause,
      at: move.at,
    });
    // The commission earned on the money that went back is taken back in the same transaction.
    await recordCommissionReversal(tx, {
      order: refund.order,
      paymentRef: refund.attempt.paymentRef,
      refundRef: refund.refundRef,
      refundedAmount: refund.amount,
      occurredAt: move.at,
    });
  }
  const action = AUDIT_ACTION[move.step];
  if (action) {
    const why = move.step === 'FAIL' || move.step === 'NEED_OPERATOR' ? { reason: move.why ?? null } : {};
    audit(tx, ports, refund, action, move.actor, move.at, why);
  }
  if (next.to === 'SUCCEEDED')
    await recordRefundEvent(tx, 'refund.succeeded', refundEventFacts(refund), refund.order, move.at);
  if (next.to === 'FAILED')
    await recordRefundEvent(tx, 'refund.failed', refundEventFacts(refund), refund.order, move.at);
}

function lifeAfter(refund: Refund, to: RefundStatus, move: RefundMove): Partial<RefundLife> {
  const answered = { status: to, claimedUntil: null, ...(move.provider ? { provider: move.provider } : {}) };
  switch (move.step) {
    case 'RETRY_LATER':
      return {
        ...answered,
        nextTryAt: move.nextTryAt ?? move.at,
        lastError: (move.why ?? '').slice(0, 500) || null,
        outcomeUnknown: refund.outcomeUnknown || !move.nothingSent,
      };
    case 'NEED_OPERATOR':
      return { ...answered, nextTryAt: null, lastError: move.why ?? null };
    case 'FAIL':
      return { ...answered, nextTryAt: null, lastError: move.why ?? null, completedAt: move.at };
    case 'RETRY':
      // The next try is a retry (a lookup comes first: the operator may have refunded in the
      // provider's portal since), but the give-up window starts again.
      return {
        ...answered,
        nextTryAt: move.at,
        completedAt: null,
        tries: Math.min(refund.tries, 1),
        outcomeUnknown: true,
      };
    case 'SUCCEED':
    case 'CONFIRM':
    case 'FOUND_AT_PROVIDER':
      return {
        ...answered,
        completedAt: move.at,
        nextTryAt: null,
        lastError: null,
        providerRefundRef: refund.providerRefundRef ?? move.providerRefundRef,
        ...(move.amount !== undefined && move.amount !== refund.amount ? { amount: move.amount } : {}),
        note: move.step === 'CONFIRM' ? move.note : [refund.note, move.note].filter(Boolean).join('; ') || null,
      };
  }
}

/** What a new refund is: the money owed back for one order's share of one payment. */
export interface RefundBirth {
  refundRef: string;
  order: Order;
  attempt: PaymentAttempt;
  cause: RefundCause;
  amount: Minor;
  fee: Minor;
  actor: string;
  at: Date;
  provider?: string;
  providerRefundRef?: string;
  note?: string;
}

/** A refund is born PENDING, due now, with its REFUND_CREATED entry; its first step is the caller's. */
export function openRefund(tx: EntityManager, birth: RefundBirth, ports: RefundPorts): Refund {
  const refund = tx.create(Refund, {
    refundRef: birth.refundRef,
    order: birth.order,
    attempt: birth.attempt,
    cause: birth.cause,
    amount: birth.amount,
    fee: birth.fee,
    currency: birth.attempt.currency,
    gateway: birth.attempt.gateway,
    provider: birth.provider,
    providerRefundRef: birth.providerRefundRef,
    nextTryAt: birth.at,
    note: birth.note ?? null,
    actor: birth.actor,
    createdAt: birth.at,
    updatedAt: birth.at,
  });
  audit(tx, ports, refund, 'REFUND_CREATED', birth.actor, birth.at, {});
  return refund;
}

/**
 * `refunds_total`: a refund reaching a status, whoever moved it (an API or command-line cancel, the
 * executor, an operator, a late capture, the watch), counted once its transaction committed.
 */
export function countAfterCommit(tx: EntityManager, ports: RefundPorts, refund: Refund, status: RefundStatus): void {
  const counter = ports.metrics?.refunds;
  if (counter) afterCommit(tx, () => counter.inc({ gateway: refund.gateway, status }));
}

/** The order's audit entry, written by its owner through the port (decision record 0111). */
function audit(
  tx: EntityManager,
  ports: RefundPorts,
  refund: Refund,
  action: RefundAuditAction,
  actor: string,
  at: Date,
  extra: Record<string, unknown>,
): void {
  ports.refundWrites.audit(tx, {
    actor,
    action,
    order: refund.order,
    at,
    details: { ...refundAuditDetails(refund), ...extra },
  });
}

/** A refund the executor holds: its tries with this one, and whether an earlier one may have reached the refund call unanswered. */
export interface ClaimedRefund {
  id: string;
  tries: number;
  outcomeUnknown: boolean;
}

/**
 * Claims the next due PENDING refund for the executor, committed before the provider is called:
 * tries + 1, and a lease (`claimedUntil`, and the next try pushed past it) longer than the call can
 * take, so two executors never call the provider for one refund at once and a process killed
 * mid-call leaves a refund the next pass retries after the lease (with a lookup first: a claim
 * that finds the last one's lease never cleared marks the outcome unknown). One
 * refund per provider transaction is in flight at a time: a refund whose payment has another
 * refund claimed is left for a later pass, and claims of one payment's refunds are taken one
 * after another (a transaction-scoped advisory lock on the payment), so a retry's lookup never
 * sees a sibling's money half-sent.
 */
export async function claimDueRefund(
  em: EntityManager,
  leaseSeconds: number,
  now: Date,
): Promise<ClaimedRefund | null> {
  const leaseUntil = new Date(Math.max(now.getTime(), Date.now()) + leaseSeconds * 1000);
  return em.fork().transactional(async (tx) => {
    for (const skipped: string[] = []; ;) {
      const [due] = await tx.execute<Array<{ id: string; attempt_id: string }>>(
        `select "id", "attempt_id" from "refund" where "status" = 'PENDING' and "next_try_at" <= ? and not ("id" = any(?::uuid[]))
          order by "next_try_at", "id" limit 1 for update skip locked`,
        [now, `{${skipped.join(',')}}`],
      );
      if (!due) return null;
      await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`refund-payment:${due.attempt_id}`]);
      const [busy] = await tx.execute<Array<{ n: string }>>(
        `select count(*)::text as n from "refund" where "attempt_id" = ? and "id" <> ? and "status" = 'PENDING' and "claimed_until" > ?`,
        [due.attempt_id, due.id, new Date()],
      );
      if (busy && busy.n !== '0') {
        skipped.push(due.id);
        continue;
      }
      const [claimed] = await tx.execute<Array<{ id: string; tries: number; outcome_unknown: boolean }>>(
        `update "refund" set "tries" = "tries" + 1, "outcome_unknown" = "outcome_unknown" or "claimed_until" is not null,
          "next_try_at" = ?, "claimed_until" = ?, "updated_at" = now() where "id" = ? returning "id", "tries", "outcome_unknown"`,
        [leaseUntil, leaseUntil, due.id],
      );
      return claimed ? { id: claimed.id, tries: claimed.tries, outcomeUnknown: claimed.outcome_unknown } : null;
    }
  });
}
