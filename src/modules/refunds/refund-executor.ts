import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { ProviderUnavailableError } from '../../kernel/errors';
import type { JobQueue } from '../../kernel/jobs/job-queue';
import { startPeriodicJob, type PeriodicJob } from '../../kernel/jobs/periodic-job';
import { Refund } from './entities/refund';
import type { RefundAnswer, RefundDeps } from './refund-deps';
import { claimDueRefund, moveRefund, type ClaimedRefund } from './refund-life';
import { refundBackoffSeconds, refundLeaseSeconds, refundRetriesExhausted } from './rules/refund-life';
import { lockShareForRefunds } from './share-room';

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
export async function executeDueRefunds(
  em: EntityManager,
  deps: RefundDeps,
  now = new Date(),
): Promise<RefundPassSummary> {
  const summary: RefundPassSummary = { tried: 0, succeeded: 0, manual: 0, failed: 0, retrying: 0 };
  for (let taken = 0; taken < PASS_LIMIT; taken += 1) {
    const claimed = await claimDueRefund(em, leaseSeconds(deps), now);
    if (!claimed) break;
    summary.tried += 1;
    const outcome = await executeRefund(em, claimed, deps);
    summary[outcome] += 1;
  }
  return summary;
}

const leaseSeconds = (deps: RefundDeps): number =>
  refundLeaseSeconds(deps.payments.providerLookupAttempts, deps.payments.providerTimeoutMs);

type RefundOutcome = 'succeeded' | 'manual' | 'failed' | 'retrying';

async function executeRefund(
  em: EntityManager,
  { id: refundId, tries, outcomeUnknown }: ClaimedRefund,
  deps: RefundDeps,
): Promise<RefundOutcome> {
  const read = em.fork();
  const refund = await read.findOneOrFail(Refund, refundId, { populate: ['attempt', 'order'] });
  const { attempt } = refund;
  let answer: RefundAnswer;
  try {
    if (refund.gateway === 'cash') {
      answer = { kind: 'MANUAL', why: 'cash is given back by the operator' };
    } else {
      // The provider that took the payment refunds it, whatever takes new payments today.
      const gateway = attempt.provider
        ? deps.gateways.of(refund.gateway, attempt.provider)
        : deps.gateways.get(refund.gateway);
      if (!gateway)
        throw new ProviderUnavailableError(
          attempt.provider ?? 'none',
          'NOT_CONFIGURED',
          `no provider adapter serves ${refund.gateway} (${attempt.provider ?? 'unrecorded'})`,
          true,
        );
      const siblings = await read.find(
        Refund,
        { attempt: attempt.id, id: { $ne: refund.id } },
        { fields: ['amount', 'status', 'tries', 'outcomeUnknown'] },
      );
      const before = siblings.filter((other) => other.status === 'SUCCEEDED');
      answer = await gateway.refund({
        refundRef: refund.refundRef,
        payment: {
          paymentRef: attempt.paymentRef,
          providerRef: attempt.providerRef,
          amount: attempt.amount,
          currency: attempt.currency,
          gatewayTransactionId: attempt.gatewayTransactionId,
          customerMobile: attempt.customerMobile,
        },
        amount: refund.amount,
        retry: outcomeUnknown,
        refundedBefore: before.reduce((sum, other) => sum + other.amount, 0),
        // A MANUAL sibling that reached the provider may be refunded in its portal at any time.
        othersUncertain: siblings.some(
          (other) =>
            (other.status === 'PENDING' && other.outcomeUnknown) || (other.status === 'MANUAL' && other.tries > 0),
        ),
      });
    }
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError))
      deps.logger.error({ err: error, refundRef: refund.refundRef }, 'refund execution failed unexpectedly');
    const why = error instanceof Error ? error.message : String(error);
    const nothingSent = error instanceof ProviderUnavailableError && error.nothingSent;
    if (refundRetriesExhausted(tries, deps.payments.refundRetryDays, deps.payments.refundRetryBaseSeconds)) {
      const gaveUp = `gave up after ${tries} tries over ${deps.payments.refundRetryDays} days: ${why}`;
      // A try whose answer was never learnt may have given the money back: that is for a person to
      // check in the portal (MANUAL), never a FAILED refund the operator would retry or make again.
      return recordOutcome(
        em,
        refundId,
        outcomeUnknown || !nothingSent
          ? {
              kind: 'MANUAL',
              why: `${gaveUp}; the outcome of a try is unknown: check the provider's portal for this refund, then ops refund confirm (it went back) or ops refund retry`,
            }
          : { kind: 'REFUSED', reason: gaveUp },
        deps,
      );
    }
    const next = new Date(Date.now() + refundBackoffSeconds(tries, deps.payments.refundRetryBaseSeconds) * 1000);
    await em.fork().transactional(async (tx) => {
      const pending = await lockedRefund(tx, refundId);
      if (pending.status === 'PENDING')
        await moveRefund(
          tx,
          pending,
          {
            step: 'RETRY_LATER',
            actor: 'refund-executor',
            at: new Date(),
            why,
            nextTryAt: next,
            nothingSent,
          },
          deps,
        );
    });
    deps.logger.warn(
      { refundRef: refund.refundRef, tries, nextTryAt: next.toISOString(), why },
      'refund not made yet: provider unavailable, retrying later',
    );
    return 'retrying';
  }
  return recordOutcome(em, refundId, answer, deps);
}

/**
 * The refund read under its share's refund lock (decision 0091), then its row's: the operator's
 * confirm and the payment watch take the same lock, so an answer is recorded once.
 */
async function lockedRefund(tx: EntityManager, refundId: string): Promise<Refund> {
  const [share] = await tx.execute<Array<{ attempt_id: string; order_id: string }>>(
    `select "attempt_id", "order_id" from "refund" where "id" = ?`,
    [refundId],
  );
  if (share) await lockShareForRefunds(tx, { attemptId: share.attempt_id, orderId: share.order_id });
  const refund = await tx.findOneOrFail(Refund, refundId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  await tx.populate(refund, ['attempt', 'order']);
  return refund;
}

/** Records a provider's answer under the share's refund lock, once: a refund no longer PENDING is left as it is. */
async function recordOutcome(
  em: EntityManager,
  refundId: string,
  answer: RefundAnswer,
  deps: RefundDeps,
  now = new Date(),
): Promise<RefundOutcome> {
  return em.fork().transactional(async (tx) => {
    const refund = await lockedRefund(tx, refundId);
    if (refund.status !== 'PENDING')
      return refund.status === 'SUCCEEDED' ? 'succeeded' : refund.status === 'MANUAL' ? 'manual' : 'failed';
    const provider =
      refund.gateway === 'cash' ? 'cash' : (refund.attempt.provider ?? deps.gateways.get(refund.gateway)?.provider);
    const how = { actor: 'refund-executor', at: now, ...(provider ? { provider } : {}) };
    if (answer.kind === 'REFUNDED') {
      await moveRefund(tx, refund, { ...how, step: 'SUCCEED', providerRefundRef: answer.providerRefundRef }, deps);
      deps.logger.info({ refundRef: refund.refundRef, provider, amount: refund.amount }, 'refund made at the provider');
      return 'succeeded';
    }
    // A refund the provider needs the customer's mobile for is a person's work, never a failure.
    if (answer.kind === 'MANUAL' || answer.kind === 'NEEDS_CUSTOMER_MOBILE') {
      await moveRefund(tx, refund, { ...how, step: 'NEED_OPERATOR', why: answer.why }, deps);
      return 'manual';
    }
    await moveRefund(tx, refund, { ...how, step: 'FAIL', why: answer.reason }, deps);
    deps.logger.error(
      { refundRef: refund.refundRef, provider, reason: answer.reason },
      'refund failed: the operator takes it from here',
    );
    return 'failed';
  });
}

export interface RefundJob extends PeriodicJob<RefundPassSummary> {
  /** Runs a pass soon (after the caller's commit), sharing the pass in flight. */
  kick(): void;
}

/**
 * The executor's kick as the payment deps carry it from the start (server.ts builds them before the
 * job queue runs): nothing until `bind` gives it the started job's kick, so a refund written meanwhile
 * waits for the first periodic pass.
 */
export class RefundKick {
  #kick: (() => void) | undefined;
  readonly kick = (): void => this.#kick?.();
  bind(kick: () => void): void {
    this.#kick = kick;
  }
}

/**
 * The refund executor: a pass every REFUND_INTERVAL_SECONDS once per cluster (the job queue),
 * and one soon after a refund is written (kick), in this process. Passes overlapping across
 * processes take different refunds (the claim), so each refund is called once at a time.
 */
export async function startRefundJob(
  queue: JobQueue,
  newEm: () => EntityManager,
  deps: RefundDeps,
): Promise<RefundJob> {
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
    // Callers kick after their commit (kernel/db/after-commit.ts): the pass reads only committed
    // refunds. Kicks in one turn of the event loop share one pass.
    timer ??= setTimeout(() => {
      timer = undefined;
      void drain();
    }, 0);
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
