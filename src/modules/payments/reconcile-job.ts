import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kernel/jobs/job-queue';
import type { PaymentDeps } from './payment-deps';
import { watchDueAttempts, type WatchSummary } from './payment-watch';
import { startPeriodicJob, type PeriodicJob } from '../../kernel/jobs/periodic-job';

export type PaymentReconcileJob = PeriodicJob<WatchSummary>;

/**
 * A reconciliation pass (the payment watch) every PAYMENT_RECONCILE_INTERVAL_SECONDS, once per
 * cluster (the job queue; within a pass each attempt is claimed with SKIP LOCKED). Should two passes still overlap (an operator's, a slow one), each attempt is settled
 * under row locks and a gateway's word is recorded once, so the second finds nothing left to do.
 */
export function startPaymentReconcileJob(
  queue: JobQueue,
  newEm: () => EntityManager,
  deps: PaymentDeps,
): Promise<PaymentReconcileJob> {
  const pass = async () => {
    const summary = await watchDueAttempts(newEm(), deps);
    if (summary.checked > 0) deps.logger.info({ summary }, 'payment reconciliation pass');
    return summary;
  };
  const seconds = deps.gateways.size === 0 ? 0 : deps.payments.reconcileIntervalSeconds;
  return startPeriodicJob(queue, 'payment-reconcile', pass, seconds, deps.logger);
}
