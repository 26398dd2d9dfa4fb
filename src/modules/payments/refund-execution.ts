import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { JobQueue } from '../../kernel/jobs/job-queue';
import { startPeriodicJob, type PeriodicJob } from '../../kernel/jobs/periodic-job';
import { recordAudit } from '../orders';
import { recordRefundEvent } from '../webhooks';
import { recordCommissionReversal } from '../commissions';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import { Refund } from './entities/refund';
import { ProviderUnavailableError, type GatewayRefund } from './providers/gateway';
import { gatewayOfAttempt, type PaymentDeps } from './payment-deps';
import { refundAuditDetails, refundEventFacts, settleAttemptWhenAllRefunded } from './refunds';
import { MAX_REFUND_TRIES, refundBackoffSeconds } from './rules/refund';

export interface RefundPassSummary {
  tried: number;
  succeeded: number;
  manual: number;
  failed: number;
  retrying: number;
}

/** How many refunds one pass takes on, so a long backlog never holds a pass for long. */
const PASS_LIMIT = 50;

/**
 * One pass of the refund executor: every PENDING refund that is due is claimed and made at its
 * provider, one after another. A claim is committed before the provider is called (tries + 1,
 * next try pushed past the call's longest duration), so two executors never call the provider for
 * one refund at once, and a process killed mid-call leaves a refund that the next pass retries
 * after the lease, with a lookup first (RefundRequest.retry) so that the money never goes back twice.
 */
export async function executeDueRefunds(em: EntityManager, deps: PaymentDeps, now = new Date()): Promise<RefundPassSummary> {
  const summary: RefundPassSummary = { tried: 0, succeeded: 0, manual: 0, failed: 0, retrying: 0 };
  for (let taken = 0; taken < PASS_LIMIT; taken += 1) {
    const claimed = await claimDueRefund(em, deps, now);
    if (!claimed) break;
    summary.tried += 1;
    const outcome = await executeRefund(em, claimed.id, claimed.tries, deps);
    summary[outcome] += 1;
  }
  return summary;
}

/** Seconds a claim holds a refund: longer than the lookups and the refund call can take together. */
function leaseSeconds(deps: PaymentDeps): number {
  return Math.ceil(((deps.payments.providerLookupAttempts + 2) * deps.payments.providerTimeoutMs) / 1000) + 30;
}

async function claimDueRefund(em: EntityManager, deps: PaymentDeps, now: Date): Promise<{ id: string; tries: number } | null> {
  const leaseUntil = new Date(Math.max(now.getTime(), Date.now()) + leaseSeconds(deps) * 1000);
  const rows = await em.fork().getConnection().execute<Array<{ id: string; tries: number }>>(
    `update "refund" set "tries" = "tries" + 1, "next_try_at" = ?, "updated_at" = now()
      where "id" = (select "id" from "refund" where "status" = 'PENDING' and "next_try_at" <= ? order by "next_try_at", "id" limit 1 for update skip locked)
      returning "id", "tries"`,
    [leaseUntil, now],
  );
  return rows[0] ?? null;
}

type RefundOutcome = 'succeeded' | 'manual' | 'failed' | 'retrying';

async function executeRefund(em: EntityManager, refundId: string, tries: number, deps: PaymentDeps): Promise<RefundOutcome> {
  const read = em.fork();
  const refund = await read.findOneOrFail(Refund, refundId, { populate: ['attempt', 'order'] });
  const { attempt } = refund;
  let answer: GatewayRefund;
  try {
    if (refund.gateway === 'cash') {
      answer = { kind: 'MANUAL', why: 'cash is given back by the operator' };
    } else {
      const gateway = gatewayOfAttempt(deps, attempt);
      const before = await read.find(Refund, { attempt: attempt.id, status: 'SUCCEEDED', id: { $ne: refund.id } }, { fields: ['amount'] });
      answer = await gateway.refund({
        refundRef: refund.refundRef,
        payment: { paymentRef: attempt.paymentRef, providerRef: attempt.providerRef, amount: attempt.amount, currency: attempt.currency, gatewayTransactionId: attempt.gatewayTransactionId, customerMobile: attempt.customerMobile },
        amount: refund.amount,
        retry: tries > 1,
        refundedBefore: before.reduce((sum, other) => sum + other.amount, 0),
      });
    }
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError)) deps.logger.error({ err: error, refundRef: refund.refundRef }, 'refund execution failed unexpectedly');
    const why = error instanceof Error ? error.message : String(error);
    if (tries >= MAX_REFUND_TRIES) return recordOutcome(em, refundId, { kind: 'REFUSED', reason: `gave up after ${tries} tries: ${why}` }, deps);
    const next = new Date(Date.now() + refundBackoffSeconds(tries, deps.payments.refundRetryBaseSeconds) * 1000);
    await em.fork().nativeUpdate(Refund, { id: refundId, status: 'PENDING' }, { nextTryAt: next, lastError: why.slice(0, 500) });
    deps.logger.warn({ refundRef: refund.refundRef, tries, nextTryAt: next.toISOString(), why }, 'refund not made yet: provider unavailable, retrying later');
    return 'retrying';
  }
  return recordOutcome(em, refundId, answer, deps);
}

/** Records a provider's answer under the refund's row lock, once: a refund no longer PENDING is left as it is. */
async function recordOutcome(em: EntityManager, refundId: string, answer: GatewayRefund, deps: PaymentDeps, now = new Date()): Promise<RefundOutcome> {
  return em.fork().transactional(async (tx) => {
    const refund = await tx.findOneOrFail(Refund, refundId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    await tx.populate(refund, ['attempt', 'order']);
    if (refund.status !== 'PENDING') return refund.status === 'SUCCEEDED' ? 'succeeded' : refund.status === 'MANUAL' ? 'manual' : 'failed';
    const provider = refund.gateway === 'cash' ? 'cash' : (refund.attempt.provider ?? deps.gateways.get(refund.gateway)?.provider);
    if (provider) refund.provider = provider;
    if (answer.kind === 'REFUNDED') {
      await completeRefund(tx, refund, { actor: 'refund-executor', providerRefundRef: answer.providerRefundRef, at: now });
      deps.metrics?.refunds?.inc({ gateway: refund.gateway, status: 'SUCCEEDED' });
      deps.logger.info({ refundRef: refund.refundRef, provider, amount: refund.amount }, 'refund made at the provider');
      return 'succeeded';
    }
    refund.nextTryAt = null;
    // A refund the provider needs the customer's mobile for is a person's work, never a failure.
    if (answer.kind === 'MANUAL' || answer.kind === 'NEEDS_CUSTOMER_MOBILE') {
      refund.status = 'MANUAL';
      refund.lastError = answer.why;
      recordAudit(tx, { actor: 'refund-executor', action: 'REFUND_MANUAL', order: refund.order, at: now, details: refundAuditDetails(refund) });
      deps.metrics?.refunds?.inc({ gateway: refund.gateway, status: 'MANUAL' });
      return 'manual';
    }
    refund.status = 'FAILED';
    refund.lastError = answer.reason;
    refund.completedAt = now;
    recordAudit(tx, { actor: 'refund-executor', action: 'REFUND_FAILED', order: refund.order, at: now, details: { ...refundAuditDetails(refund), reason: answer.reason } });
    await recordRefundEvent(tx, 'refund.failed', refundEventFacts(refund), refund.order, now);
    deps.metrics?.refunds?.inc({ gateway: refund.gateway, status: 'FAILED' });
    deps.logger.error({ refundRef: refund.refundRef, provider, reason: answer.reason }, 'refund failed: the operator takes it from here');
    return 'failed';
  });
}

/**
 * A refund's money is back (the provider said so, or the operator confirmed it): SUCCEEDED, its
 * share REFUNDED, a late-capture attempt REFUNDED once nothing of it is owed, an audit entry and
 * `refund.succeeded`. The caller holds the refund's row lock.
 */
export async function completeRefund(tx: EntityManager, refund: Refund, how: { actor: string; at: Date; providerRefundRef?: string; note?: string }): Promise<void> {
  refund.status = 'SUCCEEDED';
  refund.completedAt = how.at;
  refund.nextTryAt = null;
  refund.lastError = null;
  if (how.providerRefundRef) refund.providerRefundRef = how.providerRefundRef;
  if (how.note) refund.note = how.note;
  const share = await tx.findOne(PaymentAttemptOrder, { attempt: refund.attempt.id, order: refund.order.id });
  if (share && share.settlement === 'REFUND_PENDING') share.settlement = 'REFUNDED';
  await recordCommissionReversal(tx, { order: refund.order, paymentRef: refund.attempt.paymentRef, refundRef: refund.refundRef, refundedAmount: refund.amount, occurredAt: how.at });
  await settleAttemptWhenAllRefunded(tx, refund.attempt, how.at);
  recordAudit(tx, { actor: how.actor, action: how.note ? 'REFUND_CONFIRMED' : 'REFUND_SUCCEEDED', order: refund.order, at: how.at, details: refundAuditDetails(refund) });
  await recordRefundEvent(tx, 'refund.succeeded', refundEventFacts(refund), refund.order, how.at);
}

export interface RefundJob extends PeriodicJob<RefundPassSummary> {
  /** Runs a pass soon (after the caller's commit), sharing the pass in flight. */
  kick(): void;
}

/**
 * The refund executor: a pass every REFUND_INTERVAL_SECONDS once per cluster (the job queue),
 * and one soon after a refund is written (kick), in this process. Passes overlapping across
 * processes take different refunds (the claim), so each refund is called once at a time.
 */
export async function startRefundJob(queue: JobQueue, newEm: () => EntityManager, deps: PaymentDeps): Promise<RefundJob> {
  const pass = async () => {
    const summary = await executeDueRefunds(newEm(), deps);
    if (summary.tried > 0) deps.logger.info({ summary }, 'refund executor pass');
    return summary;
  };
  const job = await startPeriodicJob(queue, 'refund-execution', pass, deps.payments.refundIntervalSeconds, deps.logger);
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const drain = async () => {
    running = true;
    try {
      do {
        again = false;
        await job.runOnce();
      } while (again);
    } catch (error) {
      deps.logger.error({ err: error }, 'refund executor pass failed');
    } finally {
      running = false;
    }
  };
  const kick = () => {
    // A kick during a pass may name a refund that pass no longer looks for: run once more after it.
    if (running) {
      again = true;
      return;
    }
    // A short delay lets the caller's transaction commit: the pass reads only committed refunds.
    timer ??= setTimeout(() => {
      timer = undefined;
      void drain();
    }, 50);
    timer.unref();
  };
  return {
    ...job,
    kick,
    async stop() {
      if (timer) clearTimeout(timer);
      await job.stop();
    },
  };
}
